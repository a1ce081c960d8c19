// How much of a batch of imported cards goes into one statement. Every statement's parameters are built as
// one message in this process and parsed whole by PostgreSQL, so a batch is written in chunks of at most
// WRITE_CHUNK_BYTES: a batch of long cards, or of cards with long histories, takes more statements, never a
// larger one. Sizes are estimates of what the parameters take: the text as UTF-8, and for each review item
// and review log what its row and memory snapshots take as text.

export const WRITE_CHUNK_BYTES = 4 * 1024 ** 2;
/** About what a review item's row takes among the parameters. */
const ITEM_BYTES = 128;
/** About what a review log's row takes, with its two memory snapshots as JSON. */
const LOG_BYTES = 512;

/** What a card's size is estimated from (anki-writes.ts's AnkiCardToImport has these and more). */
export interface SizedCard {
  externalId: string;
  front: string;
  back: string;
  tags: string[];
  mediaIds: string[];
  items: { logs: unknown[] }[];
}

/** About what `card` takes among a chunk's parameters. */
export function cardBytes(card: SizedCard): number {
  const text = [card.externalId, card.front, card.back, ...card.tags].reduce((sum, t) => sum + Buffer.byteLength(t), 0);
  const logs = card.items.reduce((sum, item) => sum + item.logs.length, 0);
  return text + card.items.length * ITEM_BYTES + logs * LOG_BYTES + 36 * card.mediaIds.length;
}

/** `cards` in order, in chunks of at most `maxBytes` (a card larger than that alone in its chunk). */
export function* inChunks<C extends SizedCard>(cards: C[], maxBytes: number): Generator<C[]> {
  let chunk: C[] = [];
  let bytes = 0;
  for (const card of cards) {
    const size = cardBytes(card);
    if (chunk.length > 0 && bytes + size > maxBytes) {
      yield chunk;
      chunk = [];
      bytes = 0;
    }
    chunk.push(card);
    bytes += size;
  }
  if (chunk.length > 0) yield chunk;
}
