// Packages written by Anki itself (anki-written/SOURCES.md): every note, card, review and file of each comes
// through the mapping whole. The invariants hold for any package Anki writes, so a witness added to the folder
// is checked without a line of test to change.
import { join } from 'node:path';
import { parseOcclusion } from '@engram/contracts/occlusion';
import {
  ankiWrittenPackages,
  COMMITTED_WITNESSES,
  EXTERNAL_WITNESSES,
  packagesIn,
} from '@engram/testkit/anki-witnesses';
import { describe, expect, it } from 'vitest';
import { isImageOcclusion, occlusionShapes } from '../../src/image-occlusion.ts';
import { isReview, memoryState } from '../../src/memory-state.ts';
import { openPackage } from '../../src/open-package.ts';
import { mappingContext, shapeOf, toEngram } from '../../src/to-engram.ts';
import type { AnkiNoteType } from '../../src/types.ts';

const decodeName = (name: string) => {
  try {
    return decodeURIComponent(name.replaceAll('&amp;', '&'));
  } catch {
    return name;
  }
};

const ANKI_WRITTEN = ankiWrittenPackages();

/**
 * A note type of Anki's stock "Basic (type in the answer)": by its stock kind where the package says it (Anki 2.1.50+
 * collections), else by its one template asking its first field with a box for its second, as the stock one does.
 */
function isStockTyping(type: AnkiNoteType): boolean {
  const [first, second] = type.fields;
  const question = type.templates.length === 1 ? type.templates[0]!.qfmt.replace(/\s+/g, '') : '';
  // One edited to leave accents aside ({{type:nc:Back}}) comes in as a note type of its own, which keeps that.
  if (question.includes(`{{type:nc:${second}}}`)) return false;
  if (type.originalStockKind === 'basicTyping') return true;
  return question === `{{${first}}}{{type:${second}}}`;
}

/** What a package holds by Anki's count, and what the mapping made of it. */
async function mapWhole(path: string) {
  const reader = await openPackage(path);
  try {
    const context = mappingContext(reader);
    const media = new Set(reader.media().map((file) => file.name));
    const found = {
      notes: 0,
      cards: 0,
      reviews: 0,
      items: 0,
      logs: 0,
      skipped: [] as string[],
      lost: [] as string[],
      /** Notes of Anki's stock "Basic (type in the answer)", and those of them not made typed cards. */
      typing: 0,
      typingNotTyped: [] as string[],
      /** Image Occlusion notes, and those not made one occlusion card with the note's shapes and all its cards. */
      occlusion: 0,
      occlusionNotKept: [] as string[],
      /** Notes of a note type of the learner's own making, and those not made one note of it with every card. */
      custom: 0,
      customNotKept: [] as string[],
    };
    for (const batch of reader.bundles(100)) {
      for (const bundle of batch) {
        found.notes++;
        found.cards += bundle.cards.length;
        found.reviews += bundle.cards.reduce((sum, { revlog }) => sum + revlog.filter(isReview).length, 0);
        const mapped = toEngram(bundle, context);
        const noteType = context.noteTypes.get(bundle.note.noteTypeId);
        if (noteType && isStockTyping(noteType)) {
          found.typing++;
          for (const draft of mapped.cards) {
            if (draft.type !== 'typed') found.typingNotTyped.push(`${bundle.note.id}: ${draft.type}`);
          }
        }
        if (noteType && isImageOcclusion(noteType)) {
          found.occlusion++;
          const [draft, ...more] = mapped.cards;
          const shapes = occlusionShapes(bundle.note.fields[0] ?? '');
          const kept = draft && parseOcclusion(draft.front);
          if (!draft || more.length > 0 || draft.type !== 'occlusion' || kept?.shapes.length !== shapes.length) {
            found.occlusionNotKept.push(`${bundle.note.id}: ${mapped.cards.map((card) => card.type).join(', ')}`);
          } else if (draft.items.length !== bundle.cards.length) {
            found.occlusionNotKept.push(`${bundle.note.id}: ${draft.items.length} of ${bundle.cards.length} cards`);
          }
        }
        if (noteType && noteType.kind === 'standard' && shapeOf(noteType) === 'custom' && !isImageOcclusion(noteType)) {
          found.custom++;
          const [draft, ...more] = mapped.cards;
          const ordinals = bundle.cards.map(({ card }) => card.ordinal).sort();
          const kept = draft?.items.map((item) => item.ordinal).sort();
          if (!draft || more.length > 0 || draft.type !== 'note' || draft.note?.noteTypeId !== noteType.id) {
            found.customNotKept.push(`${bundle.note.id}: ${mapped.cards.map((card) => card.type).join(', ')}`);
          } else if (draft.note.fields.length !== noteType.fields.length || `${kept}` !== `${ordinals}`) {
            found.customNotKept.push(`${bundle.note.id}: fields or cards ${kept} of ${ordinals}`);
          }
        }
        const shown = new Set<string>();
        found.skipped.push(...mapped.skipped.map((note) => `${note.noteId}: ${note.problem.message}`));
        for (const draft of mapped.cards) {
          found.items += draft.items.length;
          for (const item of draft.items) {
            found.logs += memoryState(item.card, item.revlog, { created: reader.created }).logs.length;
          }
          for (const name of draft.media) shown.add(name);
        }
        // The package's files its note shows (a package exported without its media holds none of them).
        const fields = bundle.note.fields.join(' ');
        for (const match of fields.matchAll(/<img[^>]*?\ssrc=["']?([^"'>]+)|\[sound:([^\]]+)\]/gi)) {
          const name = decodeName((match[1] ?? match[2] ?? '').trim());
          if (media.has(name) && !shown.has(name)) found.lost.push(name);
        }
      }
    }
    return { layout: reader.layout, counts: reader.counts(), ...found };
  } finally {
    reader.close();
  }
}

describe('packages written by Anki itself import whole', () => {
  it('has witnesses to read', () => {
    expect(packagesIn(COMMITTED_WITNESSES).length).toBeGreaterThan(0);
    if (packagesIn(EXTERNAL_WITNESSES).length === 0) {
      console.warn(
        `No witnesses in ${EXTERNAL_WITNESSES}: only the committed ones are read (anki-written/SOURCES.md).`,
      );
    }
  });

  for (const path of ANKI_WRITTEN) {
    it(path.split('/').at(-1)!, async () => {
      const found = await mapWhole(path);
      expect(found.counts.notes).toBe(found.notes);
      // Every note comes in, every Anki card is one of Engram's review items with every review, and every file
      // of the package a note shows comes with its cards.
      expect(found.skipped).toEqual([]);
      expect(found.items).toBe(found.cards);
      expect(found.logs).toBe(found.reviews);
      expect(found.lost).toEqual([]);
      // Anki's typed-answer notes come in as typed cards (anki-apkg-parser's new_deck.apkg holds one, with reviews).
      expect(found.typingNotTyped).toEqual([]);
      // Anki's Image Occlusion notes come in as one occlusion card each, every shape and card kept (srs-converter's
      // mixed-legacy-2.apkg holds one: a rectangle, an ellipse, a polygon and a text, three cards with reviews).
      expect(found.occlusionNotKept).toEqual([]);
      // A note of a note type of the learner's own comes in as one note of that type, each of its Anki cards the
      // item of its template (anki-apkg-parser's collection_nomedia_new.colpkg holds "Vocabulary": five fields,
      // two templates, one asking a typed answer; and types with a third field, scripts and hidden parts).
      expect(found.customNotKept).toEqual([]);
    });
  }

  it('the committed Anki 2.0 package holds what Anki wrote', async () => {
    const found = await mapWhole(join(COMMITTED_WITNESSES, 'anki-js-example.apkg'));
    expect(found).toMatchObject({ layout: 'anki2', notes: 3, cards: 3, items: 3 });
  });
});
