// The typed tRPC client for the gateway's /api/trpc (batched, streamed: trpc-links.ts) and its TanStack
// Query option factories.
import type { AppRouter } from '@engram/gateway/router';
import { createTRPCClient } from '@trpc/client';
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query';
import { queryClient } from './query-client';
import { trpcLinks } from './trpc-links';

export const trpcClient = createTRPCClient<AppRouter>({ links: trpcLinks() });

/** Query and mutation option factories: `useQuery(trpc.cards.list.queryOptions(input))`. */
export const trpc = createTRPCOptionsProxy<AppRouter>({ client: trpcClient, queryClient });
