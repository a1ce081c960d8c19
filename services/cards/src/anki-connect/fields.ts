// A note's fields between Anki's HTML and Engram's Markdown. Coming in, a field is sanitised and converted as
// the Anki import converts one (@engram/anki/html-to-markdown), its `<img src="x">` and `[sound:x]` pointing at
// the learner's files stored under those names; going out, a side is rendered to the HTML Anki's editor writes
// (@engram/anki/markdown-to-html), its files named as the tool stored them.
//
// A note may name a file the tool has not stored yet (Obsidian_to_Anki adds its notes, then their files): the
// name keeps its placeholder (`![](media:name)`) until storeMediaFile stores that name, which then points every
// such note of the learner at the file (resolvePendingMedia). Read back meanwhile, it is the name as Anki has it.
import { htmlToMarkdown } from '@engram/anki/html-to-markdown';
import { markdownToHtml } from '@engram/anki/markdown-to-html';
import { isSoundName, mediaIdsIn } from '@engram/contracts/media';
import type { Db } from '../db.js';
import { changeContent } from '../domain/card-writes.js';
import { type FileForCard, withFileUrls } from '../imports/anki-media.js';
import { ankiError } from './anki-error.js';
import { filesNamed } from './media-names.js';

/**
 * The longest field converted, in characters of HTML: the conversion runs in the process that serves every call,
 * and a card side holds at most 2,000 characters of Markdown anyway.
 */
export const FIELD_HTML_MAX_LENGTH = 64 * 1024;

/** Fields as Anki's HTML, as Markdown of the learner's card, with its files. */
export async function sidesToMarkdown(db: Db, ownerId: string, fields: readonly string[]): Promise<string[]> {
  if (fields.some((field) => field.length > FIELD_HTML_MAX_LENGTH)) {
    throw ankiError(`a field is at most ${FIELD_HTML_MAX_LENGTH / 1024} KB of HTML`);
  }
  const converted = fields.map((field) => htmlToMarkdown(field));
  const files = await filesNamed(
    { db },
    ownerId,
    converted.flatMap((each) => each.media),
  );
  return converted.map(({ markdown }) =>
    withFileUrls(
      markdown,
      (name) => {
        const file = files.get(name);
        return file ? { file } : undefined;
      },
      { keepMissing: true },
    ).trim(),
  );
}

/** Renders sides of the learner's cards to Anki's field HTML, resolving every file they show once. */
export async function sidesToHtml(db: Db, ownerId: string, sides: readonly string[]): Promise<string[]> {
  const ids = [...new Set(sides.flatMap((side) => mediaIdsIn(side)))];
  const names = new Map<string, string>();
  if (ids.length > 0) {
    const rows = await db.ankiMediaName.findMany({
      where: { ownerId, mediaId: { in: ids } },
      orderBy: { storedAt: 'desc' },
      select: { mediaId: true, name: true },
    });
    for (const row of rows) if (!names.has(row.mediaId)) names.set(row.mediaId, row.name);
  }
  return sides.map((side) =>
    markdownToHtml(side, (id, name) => names.get(id) ?? name).replace(PENDING_LINK, (_whole, encoded: string) => {
      const name = decodedName(encoded);
      return isSoundName(name) ? `[sound:${name}]` : `<img src="${name.replace(/"/g, '&quot;')}">`;
    }),
  );
}

/** A file not stored yet, as markdown-to-html renders its placeholder: a link to `media:<name>`. */
const PENDING_LINK = /<a href="media:([^"]*)">[^<]*<\/a>/g;

function decodedName(encoded: string): string {
  const unescaped = encoded.replace(/&amp;/g, '&').replace(/&quot;/g, '"');
  try {
    return decodeURIComponent(unescaped);
  } catch {
    return unescaped;
  }
}

/**
 * Points the learner's notes that name `name` but were waiting for its file at `file` (their placeholders become
 * its address, and the cards are linked to it).
 */
export async function resolvePendingMedia(db: Db, ownerId: string, name: string, file: FileForCard): Promise<number> {
  // Placeholders hold the name URL-encoded, its parentheses escaped (`\(`): those are wildcards here, the name
  // itself compared when the placeholder is read.
  const pattern = `%](media:${encodeURIComponent(name)
    .replace(/[\\_%]/g, '_')
    .replace(/[()]/g, '%')}%`;
  const waiting = await db.$queryRaw<{ id: string }[]>`
    SELECT id FROM cards WHERE owner_id = ${ownerId} AND (front LIKE ${pattern} OR back LIKE ${pattern})`;
  let resolved = 0;
  for (const { id } of waiting) {
    await db.$transaction(async (tx) => {
      const card = await tx.card.findFirst({ where: { id, ownerId } });
      if (!card) return;
      const point = (text: string) =>
        withFileUrls(text, (each) => (each === name ? { file } : undefined), { keepMissing: true });
      const [front, back] = [point(card.front), point(card.back)];
      if (front === card.front && back === card.back) return;
      await changeContent(tx, card, { type: card.type, front, back }, new Date());
      resolved += 1;
    });
  }
  return resolved;
}
