// The typed tRPC client for the gateway's /api/trpc (batched, streamed) and its TanStack Query option factories.
// Form data (an uploaded file) cannot be batched: it goes alone, through a plain link.
import type { AppRouter } from '@engram/gateway/router';
import { createTRPCClient, httpBatchStreamLink, httpLink, isNonJsonSerializable, splitLink } from '@trpc/client';
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query';
import { queryClient } from './query-client';

export const trpcClient = createTRPCClient<AppRouter>({
  links: [
    splitLink({
      condition: (op) => isNonJsonSerializable(op.input),
      true: httpLink({ url: '/api/trpc' }),
      false: httpBatchStreamLink({ url: '/api/trpc' }),
    }),
  ],
});

/** Query and mutation option factories: `useQuery(trpc.cards.list.queryOptions(input))`. */
export const trpc = createTRPCOptionsProxy<AppRouter>({ client: trpcClient, queryClient });
