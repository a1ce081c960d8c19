// What the web app's tRPC client and the gateway agree on about requests themselves.

/**
 * The most calls the web app puts in one batched request (its batch link's maxItems). The gateway refuses
 * larger batches (TRPC_MAX_BATCH_SIZE), which therefore may not be set below this.
 */
export const TRPC_BATCH_MAX_CALLS = 20;
