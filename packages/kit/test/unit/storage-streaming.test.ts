// Bodies stream through the object store and the S3 stand-in: ~200 MB goes in and comes out again while
// this process (client and stand-in both) grows by far less than the body, so neither side holds an
// object in memory. The bound is on memory, not on time.
import { createHash } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StoreFixture, standInStore } from '../storage-fixture.js';

const MIB = 1024 * 1024;
const BODY_MIB = 200;
const MAX_GROWTH = 64 * MIB;
const CHUNK = 64 * 1024;
/** A first transfer of this size grows the heap once; buffering whole objects would still show after it. */
const WARM_UP_MIB = 64;

let fixture: StoreFixture;
beforeAll(async () => {
  fixture = await standInStore();
  // Warm up: the SDK's modules, the server's first buffers and the heap's first growth are not what is
  // measured.
  await fixture.store.putObject('warm-up', generated(WARM_UP_MIB), {
    contentType: 'application/octet-stream',
    contentLength: WARM_UP_MIB * MIB,
  });
  for await (const _chunk of (await fixture.store.getObject('warm-up'))?.body ?? []);
});
afterAll(() => fixture?.dispose());

/** `mib` MiB in chunks made as they are read (varied, so the hash means something). */
function generated(mib: number): Readable {
  return Readable.from(
    (function* () {
      for (let i = 0; i < (mib * MIB) / CHUNK; i += 1) yield Buffer.alloc(CHUNK, i % 251);
    })(),
  );
}

/** Runs `work` while sampling the process's RSS; returns its highest growth over the start. */
async function rssGrowthDuring(work: () => Promise<void>): Promise<number> {
  const start = process.memoryUsage.rss();
  let peak = start;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 10);
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  return Math.max(peak, process.memoryUsage.rss()) - start;
}

describe('streaming through the object store', () => {
  it(`puts and gets ${BODY_MIB} MB while the process grows by less than ${MAX_GROWTH / MIB} MB`, async () => {
    const { store } = fixture;
    const sent = createHash('sha256');
    const putGrowth = await rssGrowthDuring(async () => {
      const hashing = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          sent.update(chunk);
          callback(null, chunk);
        },
      });
      const body = generated(BODY_MIB).pipe(hashing);
      await store.putObject('big/collection.apkg', body, {
        contentType: 'application/octet-stream',
        contentLength: BODY_MIB * MIB,
      });
    });
    expect((await store.headObject('big/collection.apkg'))?.contentLength).toBe(BODY_MIB * MIB);

    const received = createHash('sha256');
    let size = 0;
    const getGrowth = await rssGrowthDuring(async () => {
      const object = await store.getObject('big/collection.apkg');
      for await (const chunk of object?.body ?? []) {
        size += (chunk as Buffer).length;
        received.update(chunk as Buffer);
      }
    });
    expect(size).toBe(BODY_MIB * MIB);
    expect(received.digest('hex')).toBe(sent.digest('hex'));
    expect(putGrowth, 'RSS growth during the PUT').toBeLessThan(MAX_GROWTH);
    expect(getGrowth, 'RSS growth during the GET').toBeLessThan(MAX_GROWTH);
    await store.deleteObject('big/collection.apkg');
  });
});
