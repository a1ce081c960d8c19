// How the web app's tRPC calls travel to the gateway's /api/trpc: batched and streamed, at most
// TRPC_BATCH_MAX_CALLS calls in one request (more go as further batches), since the gateway refuses larger
// batches. Form data (an uploaded file) cannot be batched: it goes alone, through a plain link.
import { TRPC_BATCH_MAX_CALLS } from '@engram/contracts/trpc';
import { httpBatchStreamLink, httpLink, isNonJsonSerializable, splitLink } from '@trpc/client';

export function trpcLinks(url = '/api/trpc') {
  return [
    splitLink({
      condition: (op) => isNonJsonSerializable(op.input),
      true: httpLink({ url }),
      false: httpBatchStreamLink({ url, maxItems: TRPC_BATCH_MAX_CALLS }),
    }),
  ];
}
