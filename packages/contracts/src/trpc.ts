// What the web app's tRPC client and the gateway agree on about requests themselves.

/**
 * The most calls the web app puts in one batched request (its batch link's maxItems). The gateway refuses
 * larger batches (TRPC_MAX_BATCH_SIZE), which therefore may not be set below this.
 */
export const TRPC_BATCH_MAX_CALLS = 20;

/**
 * What the gateway and identity answer (503, with Retry-After) while something they need is restarting or
 * cannot be reached for a moment: the same words for a tRPC call and for an account request.
 */
export const SERVICE_UNAVAILABLE_MESSAGE = 'The service is unavailable right now. Please try again in a moment.';
