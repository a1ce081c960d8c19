// Card generation's usage figure (cards.generationUsage), read by the dashboard and the Generate
// screen with the same key, and refreshed after every generation.
import type { inferOutput } from '@trpc/tanstack-react-query';
import { queryClient } from '../../lib/query-client';
import { trpc } from '../../lib/trpc';

export const generationUsageOptions = trpc.cards.generationUsage.queryOptions();
export type GenerationUsage = inferOutput<typeof trpc.cards.generationUsage>;

export const refreshGenerationUsage = () =>
  queryClient.invalidateQueries({ queryKey: generationUsageOptions.queryKey });
