// A hostile learner of the proof: one person, signed up through the gateway as any other, who does one heavy or
// malicious thing while the other learners' load runs (each row: hostile/*.ts). What they call goes through the
// real gateway as the web app calls it; what their act ended in is read back the same way.
import { type SignedUp, signedUp } from '@engram/testkit/people';
import { request } from '../../bench-stack.ts';
import type { ProofStack } from '../stack.ts';

export interface HostileLearner {
  /** The row's name in the table. */
  name: string;
  /** What the act must end in, shown beside the promise ('the import fails with a reason'). */
  expected: string;
  /** Makes the learner and what they need before the load starts (not measured); answers the act. */
  ready(stack: ProofStack): Promise<() => Promise<ActResult>>;
}

/** What a hostile learner's act ended in, in words, and each way that was not what was expected (none: it was). */
export interface ActResult {
  outcome: string;
  problems: string[];
}

export const hostileLearner = (stack: ProofStack, label: string) => signedUp(stack.url, label, 'proof.example');

/** A tRPC call's answer as the web app reads it: the status, and the data or the error's message. */
export interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: answers are read by shape, as the web app reads them
  data: any;
  message: string;
}

/** A query (GET) or mutation (POST) as the web app sends it, waiting at most `timeoutMs` for the answer. */
export async function send(
  url: string,
  who: SignedUp,
  path: string,
  input: unknown,
  kind: 'query' | 'mutation',
  timeoutMs = 120_000,
): Promise<Answer> {
  const headers = { 'content-type': 'application/json', origin: url, cookie: who.cookie };
  const query = kind === 'query' && input !== undefined ? `?input=${encodeURIComponent(JSON.stringify(input))}` : '';
  const body = kind === 'mutation' ? JSON.stringify(input) : undefined;
  const { status, text } = await request(
    `${url}/api/trpc/${path}${query}`,
    kind === 'query' ? 'GET' : 'POST',
    headers,
    body,
    timeoutMs,
  );
  try {
    const parsed = JSON.parse(text) as { result?: { data: unknown }; error?: { message?: string } };
    return { status, data: parsed.result?.data, message: parsed.error?.message ?? '' };
  } catch {
    return { status, data: undefined, message: text.slice(0, 200) };
  }
}

/** A call that sets the scene: it must succeed; answers its data. */
export async function call(url: string, who: SignedUp, path: string, input: unknown, kind: 'query' | 'mutation') {
  const answer = await send(url, who, path, input, kind);
  if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.message}`);
  return answer.data;
}

/** Sends a file to the store as the import screen does (a slot for an import, then the PUT); the upload's id. */
export async function uploadForImport(url: string, who: SignedUp, name: string, bytes: Buffer): Promise<string> {
  const slot = await call(
    url,
    who,
    'media.createUpload',
    { name, size: bytes.length, contentType: 'application/octet-stream', purpose: 'import' },
    'mutation',
  );
  const put = await fetch(slot.url, { method: 'PUT', headers: slot.headers, body: bytes });
  if (put.status !== 200) throw new Error(`the upload of ${name} answered ${put.status}`);
  return slot.uploadId;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Reads `read` every quarter second until `done` says so or `boundMs` have passed; answers the last state read,
 * and whether it was done (a state that never came is for the row to report, not an error).
 */
export async function follow<T>(
  read: () => Promise<T>,
  done: (state: T) => boolean,
  boundMs: number,
): Promise<{ state: T; done: boolean; ms: number }> {
  const started = performance.now();
  for (;;) {
    const state = await read();
    const ms = performance.now() - started;
    if (done(state)) return { state, done: true, ms };
    if (ms > boundMs) return { state, done: false, ms };
    await pause(250);
  }
}

/** Follows an import to its end (done or failed), or until `boundMs`. */
export function followImport(url: string, who: SignedUp, importId: string, boundMs: number) {
  return follow(
    async () => (await send(url, who, 'imports.get', { importId }, 'query')).data,
    (state) => state?.status === 'done' || state?.status === 'failed',
    boundMs,
  );
}
