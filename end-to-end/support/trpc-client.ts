// tRPC through the gateway as the web app calls it: queries as GET with the input in the query string,
// mutations as POST, several queries in one batched GET; a failed call throws its tRPC error.
import type { AppRouter } from '@engram/gateway/router';
import {
  createTRPCClient,
  httpBatchStreamLink,
  httpLink,
  isNonJsonSerializable,
  splitLink,
  TRPCClientError,
} from '@trpc/client';

// biome-ignore lint/suspicious/noExplicitAny: answers are read as the web app reads them, by shape
export type Json = any;

/** The tRPC calls of a signed-in browser at `url` (or a visitor's, with an empty cookie). */
export function trpcClient(url: string, cookie: string) {
  const headers = { 'content-type': 'application/json', origin: url, cookie };
  return {
    async query(path: string, input?: unknown): Promise<Json> {
      const qs = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
      const body = (await (await fetch(`${url}/api/trpc/${path}${qs}`, { headers })).json()) as Json;
      if (body.error) throw Object.assign(new Error(body.error.message), body.error);
      return body.result.data;
    },
    async mutate(path: string, input: unknown): Promise<Json> {
      const response = await fetch(`${url}/api/trpc/${path}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(input),
      });
      const body = (await response.json()) as Json;
      if (body.error) throw Object.assign(new Error(body.error.message), body.error);
      return body.result.data;
    },
    /** Several queries in one batched GET, as the dashboard loads them. */
    async batch(paths: string[], inputs: Record<number, unknown>): Promise<Json[]> {
      const batchUrl = `${url}/api/trpc/${paths.join(',')}?batch=1&input=${encodeURIComponent(JSON.stringify(inputs))}`;
      const answers = (await (await fetch(batchUrl, { headers })).json()) as Json[];
      return answers.map((answer) => answer.result?.data ?? answer.error);
    },
  };
}

/**
 * The real tRPC client of a signed-in browser at `url`, linked as the web app links it
 * (web/src/lib/trpc-links.ts): batched and streamed, and form data (an upload) alone through a plain link.
 */
export function webTrpcClient(url: string, cookie: string) {
  const headers = { origin: url, cookie };
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => isNonJsonSerializable(op.input),
        true: httpLink({ url: `${url}/api/trpc`, headers }),
        false: httpBatchStreamLink({ url: `${url}/api/trpc`, headers }),
      }),
    ],
  });
}

/** The tRPC error a call that must be refused was refused with (the test fails when it went through). */
export async function refusal(call: Promise<unknown>): Promise<TRPCClientError<AppRouter>> {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof TRPCClientError)) throw new Error(`expected a refusal, got ${String(error ?? 'an answer')}`);
  return error as TRPCClientError<AppRouter>;
}
