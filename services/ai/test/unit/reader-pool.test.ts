// The reader pool reads each file in a child process of its own: a reading past its memory or time is
// ended (only that child), learners' files are taken in turn so one learner's queue cannot hold back
// another's, and a learner has at most READS_PER_USER files in hand at once.
import { createLogger } from '@engram/kit/logger';
import { flateBomb, nestedFlateBomb } from '@engram/testkit/hostile-files';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { createReaderPool, READS_PER_USER, type ReaderLimits } from '../../src/uploads/reader-pool.js';
import type { ReadRequest, TextRequest } from '../../src/uploads/reader-process.js';

const MB = 1024 * 1024;
const logger = createLogger({ service: 'ai-test', level: 'silent' });
const limits: ReaderLimits = { parsers: 2, memoryBytes: 160 * MB, timeoutMs: 60_000, maxInflatedBytes: 100 * MB };
const never = new AbortController().signal;

function request(content: Uint8Array, kind: TextRequest['kind'] = 'pdf'): ReadRequest {
  return { kind, content, maxPages: 50, maxTextLength: 60_000, maxInflatedBytes: limits.maxInflatedBytes };
}
const text = (words: string) => request(Buffer.from(words), 'text');

async function onePagePdf(line: string): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  document.addPage([595, 842]).drawText(line, { x: 50, y: 780, size: 12, font });
  return document.save();
}

describe('a reading that goes too far', () => {
  it('is refused when its streams would unpack past the limit, before PDF.js reads them', async () => {
    const pool = createReaderPool(limits, logger);
    expect(await pool.read('learner', request(flateBomb(1024)), never)).toEqual({
      ok: false,
      refusal: 'inflates-too-much',
    });
  });

  it('is ended when its process uses more memory than allowed, and the next file is read as before', async () => {
    const pool = createReaderPool({ ...limits, parsers: 1 }, logger);
    const bomb = pool.read('bomber', request(nestedFlateBomb(2048)), never);
    const next = pool.read('learner', request(await onePagePdf('Osmosis: water moving across a membrane.')), never);
    expect(await bomb).toEqual({ ok: false, refusal: 'out-of-memory' });
    expect(await next).toEqual({ ok: true, text: 'Osmosis: water moving across a membrane.', pages: 1 });
  }, 60_000);

  it('is ended when it takes longer than allowed', async () => {
    // No process starts, loads PDF.js and reads a PDF within a millisecond.
    const pool = createReaderPool({ ...limits, timeoutMs: 1 }, logger);
    expect(await pool.read('learner', request(await onePagePdf('Slow enough.')), never)).toEqual({
      ok: false,
      refusal: 'timed-out',
    });
  });

  it('is ended when the caller gives up', async () => {
    const pool = createReaderPool(limits, logger);
    const caller = new AbortController();
    const reading = pool.read('learner', request(nestedFlateBomb(2048)), caller.signal);
    caller.abort();
    await expect(reading).resolves.toEqual({ ok: false, refusal: 'cancelled' });
  });
});

describe("learners' turns", () => {
  it("reads the next learner's file before a second file of the learner who came first", async () => {
    const pool = createReaderPool({ ...limits, parsers: 1 }, logger);
    const order: string[] = [];
    const read = (user: string, label: string) =>
      pool.read(user, text(`notes ${label}`), never).then((outcome) => {
        order.push(label);
        return outcome;
      });
    await Promise.all([read('first', 'first-1'), read('first', 'first-2'), read('second', 'second-1')]);
    expect(order).toEqual(['first-1', 'second-1', 'first-2']);
  });

  it(`refuses a learner's file while ${READS_PER_USER} of theirs are in hand, and takes others'`, async () => {
    const pool = createReaderPool({ ...limits, parsers: 1 }, logger);
    const inHand = Array.from({ length: READS_PER_USER }, (_, i) => pool.read('busy', text(`notes ${i}`), never));
    await expect(pool.read('busy', text('one more'), never)).rejects.toThrow(
      `Upload limit reached: ${READS_PER_USER} of your files are still being read; wait until they are done.`,
    );
    expect(await pool.read('other', text('mine'), never)).toEqual({ ok: true, text: 'mine', pages: 0 });
    await Promise.all(inHand);
    expect(await pool.read('busy', text('now it fits'), never)).toMatchObject({ ok: true });
  });

  it('lets a file waiting for its turn go when its caller gives up', async () => {
    const pool = createReaderPool({ ...limits, parsers: 1 }, logger);
    const running = pool.read('first', text('running'), never);
    const caller = new AbortController();
    const waiting = pool.read('second', text('waiting'), caller.signal);
    caller.abort(new Error('gave up'));
    await expect(waiting).rejects.toThrow('gave up');
    expect(await running).toMatchObject({ ok: true });
  });
});
