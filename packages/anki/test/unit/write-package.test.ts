// The writer: a package read, written again in each layout and read back is the same collection; and
// reading streams, so a collection ten times larger does not need ten times the memory.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { generateCollection } from '../../src/generate-collection.ts';
import { openPackage } from '../../src/open-package.ts';
import type { AnkiReader } from '../../src/reader.ts';
import { mappingContext, toEngram } from '../../src/to-engram.ts';
import type { AnkiLayout } from '../../src/types.ts';
import { collectionOf, writePackage } from '../../src/write-package.ts';
import { scratchDir } from '../helpers.ts';

const { dir, cleanup } = scratchDir();
afterAll(cleanup);

const byId = <T extends { id: number }>(items: T[]) => [...items].sort((a, b) => a.id - b.id);
function snapshot(reader: AnkiReader) {
  return {
    created: reader.created,
    noteTypes: byId(reader.noteTypes()),
    decks: byId(reader.decks()),
    notes: [...reader.notes()].flat(),
    cards: [...reader.cards()].flat(),
    revlog: [...reader.revlog()].flat(),
    media: reader.media().map((m) => ({ name: m.name, size: m.size, data: readFileSync(m.path).toString('base64') })),
  };
}

describe('writePackage output re-read equals the source', () => {
  for (const layout of ['anki2', 'anki21', 'anki21b'] as AnkiLayout[]) {
    it(layout, async () => {
      const source = join(dir, `source.${layout}.apkg`);
      await generateCollection(source, {
        layout: 'anki21b',
        notes: 30,
        reviewsPerCard: 3,
        media: 5,
        withFsrsState: true,
      });
      const original = await openPackage(source);
      const copy = join(dir, `copy.${layout}.apkg`);
      try {
        await writePackage(copy, collectionOf(original), { layout, batchSize: 7 });
        const reread = await openPackage(copy);
        try {
          expect(reread.layout).toBe(layout);
          expect(snapshot(reread)).toEqual(snapshot(original));
        } finally {
          reread.close();
        }
      } finally {
        original.close();
      }
    });
  }
});

// The retained heap is what streaming bounds; collecting garbage first makes it measurable.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

describe('reading streams', () => {
  async function peakGrowth(notes: number): Promise<number> {
    const file = join(dir, `memory-${notes}.apkg`);
    await generateCollection(file, { layout: 'anki21b', notes, reviewsPerCard: 2.86, media: 20 });
    gc();
    const base = process.memoryUsage().heapUsed;
    let peak = 0;
    const reader = await openPackage(file);
    try {
      const context = mappingContext(reader);
      let items = 0;
      let batches = 0;
      for (const batch of reader.bundles(500)) {
        for (const bundle of batch) {
          for (const card of toEngram(bundle, context).cards) items += card.items.length;
        }
        // What stays reachable while reading (garbage collected first), sampled along the way.
        if (++batches % 8 === 0) {
          gc();
          peak = Math.max(peak, process.memoryUsage().heapUsed - base);
        }
      }
      // Every note mapped, each review direction of it an item (a reversed note's and a vocabulary note's two).
      expect(items).toBeGreaterThan(notes);
    } finally {
      reader.close();
    }
    return peak;
  }

  it('a 40,000-note collection grows the heap less than twice a 4,000-note one', { timeout: 180_000 }, async () => {
    const small = await peakGrowth(4000);
    const large = await peakGrowth(40_000);
    expect(large).toBeLessThan(2 * Math.max(small, 16 * 1024 ** 2));
  });
});
