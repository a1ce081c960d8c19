// The AnkiConnect bodies too large to read or write on the event loop (anki-connect-media.ts says why), handed to
// one worker thread per replica, one at a time, a few waiting. A body that takes the worker down (memory, a
// crash) fails that request alone; the pool starts another worker for the next.
import { Piscina } from 'piscina';
import { type BodyTask, ownBytes, type ReadBody, readBody, unpackRead, writeReply } from './anki-connect-media.js';

/** Bodies and replies up to this size are read and written in line: a few milliseconds at most. */
export const IN_LINE_MAX_BYTES = 1024 * 1024;
/** Bodies waiting for the worker at most; more are refused (the tool says so and may send again). */
const WAITING_MAX = 8;
/**
 * The worker's heap: the largest body (48 MB) as text, parsed, and its files decoded fit with room; a body that
 * needs more ends the worker, not the gateway.
 */
const WORKER_HEAP_MB = 512;

/** The worker could not read or write a body (it was busy with too many, or the body took it down). */
export class BodyWorkFailed extends Error {}

// The worker is this module's neighbour: TypeScript in the source tree (tests), JavaScript once built.
const WORKER_FILE = new URL(
  import.meta.url.endsWith('.ts') ? './anki-connect-media.ts' : './anki-connect-media.js',
  import.meta.url,
).href;

let pool: Piscina<BodyTask, Uint8Array> | undefined;

function worker(): Piscina<BodyTask, Uint8Array> {
  pool ??= new Piscina<BodyTask, Uint8Array>({
    filename: WORKER_FILE,
    minThreads: 0,
    maxThreads: 1,
    idleTimeout: 60_000,
    maxQueue: WAITING_MAX,
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  });
  return pool;
}

async function run(task: BodyTask, transfer: Uint8Array[]): Promise<Uint8Array> {
  try {
    return await worker().run(task, { transferList: transfer.map((bytes) => bytes.buffer as ArrayBuffer) });
  } catch (error) {
    throw new BodyWorkFailed(error instanceof Error ? error.message : String(error));
  }
}

/** A request's body parsed, its large files decoded (in the worker when it is large: the body is moved there). */
export async function readAnkiConnectBody(body: Uint8Array): Promise<ReadBody> {
  if (body.byteLength <= IN_LINE_MAX_BYTES) return readBody(body);
  const bytes = ownBytes(body);
  return unpackRead(await run({ kind: 'read', body: bytes }, [bytes]));
}

/** A reply as JSON, its files in base64 (in the worker when they are large: they are moved there, and gone here). */
export async function writeAnkiConnectReply(reply: unknown, files: Uint8Array[]): Promise<Uint8Array> {
  const size = files.reduce((sum, file) => sum + file.byteLength, 0);
  if (size <= IN_LINE_MAX_BYTES) return writeReply(reply, files);
  const own = files.map(ownBytes);
  return run({ kind: 'write', reply, files: own }, own);
}

/** Ends the worker (the gateway's shutdown). */
export async function closeAnkiConnectBodies(): Promise<void> {
  await pool?.destroy();
  pool = undefined;
}
