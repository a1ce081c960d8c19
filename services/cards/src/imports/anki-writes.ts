// Writing a batch of imported Anki cards inside the import's transaction, a statement per table for each chunk of
// the batch (write-chunks.ts: at most a few megabytes of parameters; rows passed as arrays and unnested; review
// items and logs, the most rows, written with COPY into tables of the transaction's own first, copy-rows.ts), not
// a call per row: a collection of 40,000 notes and 200,000 reviews takes a few hundred statements. They go over the
// pg pool's client, not Prisma: Prisma's debug module keeps the arguments of its last 100 queries for its error
// reports, which for these statements are whole batches (measured: 130 MB of a 192 MB heap held, a third of the
// import's time spent collecting garbage). A card is matched by its external id (`anki:<guid>`): a new one is
// created with its review items and CardCreated; one imported before gets the note's content, tags added and
// its files relinked, and keeps the progress made in Engram: an item takes Anki's memory state only when
// Anki's last review is newer than the item's. Review logs have ids derived from the learner and Anki's
// review id, so importing the same history again adds nothing.

import type { EngramMemoryState, EngramReviewLog } from '@engram/anki/memory-state';
import { CardCreated } from '@engram/contracts/events';
import type { CardType } from '@engram/contracts/learning';
import { OUTBOX_INSERT, outboxRow } from '@engram/kit/events/outbox';
import { Actor_Kind } from '@engram/proto/events/v1/envelope';
import type pg from 'pg';
import { tagKey } from '../domain/tag-name.js';
import { snapshot, stateNumber } from '../review/item-row.js';
import { copyRows } from './copy-rows.js';
import { derivedId } from './derived-id.js';
import { inChunks, WRITE_CHUNK_BYTES } from './write-chunks.js';

export interface ItemToImport {
  ordinal: number;
  memory: EngramMemoryState;
  logs: EngramReviewLog[];
}

export interface AnkiCardToImport {
  externalId: string;
  type: CardType;
  front: string;
  back: string;
  archived: boolean;
  tags: string[];
  /** The one of `tags` that is the note's Anki deck, if any. */
  deck: string | undefined;
  /** The learner's files the card's text shows. */
  mediaIds: string[];
  items: ItemToImport[];
  /** A note (type note): the learner's note type it is of and its fields' values. */
  note?: { noteTypeId: string; fields: string[] };
}

export interface BatchWritten {
  created: number;
  updated: number;
  reviews: number;
}

type Tx = pg.ClientBase;

/** A review log's id: the learner's and Anki's review id (the time of the review in ms, unique in a collection). */
export const reviewLogId = (ownerId: string, reviewedAt: Date) =>
  derivedId('anki-revlog', ownerId, reviewedAt.getTime());

// A tag that stands for an Anki deck is marked so (tags.anki_deck), also when the learner had made it before.
const UPSERT_TAGS = `
INSERT INTO tags (id, owner_id, name, name_key, anki_deck)
SELECT gen_random_uuid(), $1, name, key, deck FROM unnest($2::text[], $3::text[], $4::boolean[]) AS t(name, key, deck)
ON CONFLICT (owner_id, name_key) DO UPDATE SET name = tags.name, anki_deck = tags.anki_deck OR EXCLUDED.anki_deck
RETURNING id::text, name_key`;

// updated_at moves only when something changed, as an edit that changes nothing leaves it.
// A note's fields come as a JSON array each (an array of arrays of different lengths is no SQL array).
const UPSERT_CARDS = `
INSERT INTO cards (id, owner_id, type, front, back, archived, external_id, note_type_id, fields, created_at, updated_at)
SELECT gen_random_uuid(), $1, type, front, back, archived, external_id, note_type_id,
  ARRAY(SELECT jsonb_array_elements_text(fields::jsonb)), $2, $2
FROM unnest($3::card_type[], $4::text[], $5::text[], $6::boolean[], $7::text[], $8::text[], $9::text[])
  AS c(type, front, back, archived, external_id, note_type_id, fields)
ON CONFLICT (owner_id, external_id) WHERE external_id IS NOT NULL DO UPDATE SET
  type = EXCLUDED.type, front = EXCLUDED.front, back = EXCLUDED.back, archived = EXCLUDED.archived,
  note_type_id = EXCLUDED.note_type_id, fields = EXCLUDED.fields,
  updated_at = CASE WHEN (cards.type, cards.front, cards.back, cards.archived, cards.fields)
    IS DISTINCT FROM (EXCLUDED.type, EXCLUDED.front, EXCLUDED.back, EXCLUDED.archived, EXCLUDED.fields)
    THEN EXCLUDED.updated_at ELSE cards.updated_at END
RETURNING id::text, external_id, (xmax = 0) AS created, created_at`;

const LINK_TAGS = `
INSERT INTO card_tags (card_id, tag_id) SELECT * FROM unnest($1::uuid[], $2::uuid[]) ON CONFLICT DO NOTHING`;

const UNLINK_MEDIA = 'DELETE FROM card_media WHERE card_id = ANY($1::uuid[])';

const LINK_MEDIA = `
INSERT INTO card_media (card_id, media_id) SELECT * FROM unnest($1::uuid[], $2::uuid[]) ON CONFLICT DO NOTHING`;

/** A card imported before whose note lost a cloze deletion (or its reverse card) loses that item. */
const DROP_ITEMS = `
DELETE FROM review_items WHERE card_id = ANY($1::uuid[])
  AND (card_id, ordinal) NOT IN (SELECT * FROM unnest($2::uuid[], $3::smallint[]))`;

const MEMORY_COLUMNS = [
  'state',
  'due',
  'stability',
  'difficulty',
  'elapsed_days',
  'scheduled_days',
  'learning_step',
  'reps',
  'lapses',
  'last_review',
];
const ANKI_IS_NEWER =
  'EXCLUDED.last_review IS NOT NULL AND (review_items.last_review IS NULL OR EXCLUDED.last_review > review_items.last_review)';

const ITEM_COLUMNS = ['card_id', 'ordinal', 'archived', ...MEMORY_COLUMNS] as const;

// Review items, one or more a card, go in as the review logs do (below): COPY into a table of the transaction's own,
// then one upsert from it.
const STAGE_ITEMS = `
CREATE TEMP TABLE import_review_items (card_id uuid, ordinal smallint, archived boolean, state smallint,
  due timestamptz, stability float8, difficulty float8, elapsed_days int, scheduled_days int, learning_step smallint,
  reps int, lapses int, last_review timestamptz)
ON COMMIT DROP`;

const UPSERT_ITEMS = `
INSERT INTO review_items (id, owner_id, ${ITEM_COLUMNS.join(', ')})
SELECT gen_random_uuid(), $1, ${ITEM_COLUMNS.join(', ')} FROM import_review_items
ON CONFLICT (card_id, ordinal) DO UPDATE SET archived = EXCLUDED.archived,
  ${MEMORY_COLUMNS.map((column) => `${column} = CASE WHEN ${ANKI_IS_NEWER} THEN EXCLUDED.${column} ELSE review_items.${column} END`).join(',\n  ')}
RETURNING id::text, card_id::text, ordinal`;

// Review logs, the most rows by far, go into a table of the transaction's own with COPY, then into review_logs in
// one statement: read as parameter arrays they took PostgreSQL twice what COPY takes for them (README), from a
// table less than COPY itself.
const LOG_COLUMNS = [
  'id',
  'item_id',
  'card_id',
  'rating',
  'state_before',
  'state_after',
  'reviewed_at',
  'duration_ms',
  'elapsed_days',
  'last_elapsed_days',
  'scheduled_days',
  'learning_step',
  'due_after',
  'previous',
  'after',
  'preview',
] as const;

const STAGE_LOGS = `
CREATE TEMP TABLE import_review_logs (id uuid, item_id uuid, card_id uuid, rating smallint, state_before smallint,
  state_after smallint, reviewed_at timestamptz, duration_ms int, elapsed_days int, last_elapsed_days int,
  scheduled_days int, learning_step smallint, due_after timestamptz, previous jsonb, after jsonb, preview boolean)
ON COMMIT DROP`;

const INSERT_LOGS = `
INSERT INTO review_logs (owner_id, ${LOG_COLUMNS.join(', ')})
SELECT $1, ${LOG_COLUMNS.join(', ')} FROM import_review_logs
ON CONFLICT (id) DO NOTHING`;

const INSERT_EVENTS = `${OUTBOX_INSERT}
SELECT id, type, decode(payload, 'base64'), headers::jsonb
FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[]) AS e(id, type, payload, headers)`;

const iso = (date: Date | null) => date?.toISOString() ?? null;

/**
 * A writer of batches of imported cards for `ownerId` inside `tx`, remembering the tags it has found. A batch
 * goes in chunks of at most `chunkBytes` (write-chunks.ts), a statement per table for each.
 */
class AnkiBatchWriter {
  /** Tag ids by name key, as found or made so far. */
  private readonly tagIds = new Map<string, string>();
  /** The name keys of the tags made decks so far. */
  private readonly deckKeys = new Set<string>();
  private readonly tx: Tx;
  private readonly ownerId: string;
  private readonly now: Date;
  private readonly chunkBytes: number;
  /** The tables of rows to insert the transaction has made so far (import_review_items, import_review_logs). */
  private readonly staged = new Set<string>();

  constructor(tx: Tx, ownerId: string, now: Date, chunkBytes: number) {
    this.tx = tx;
    this.ownerId = ownerId;
    this.now = now;
    this.chunkBytes = chunkBytes;
  }

  private async findTags(cards: AnkiCardToImport[]) {
    const wanted = new Map<string, string>();
    const decks = new Set<string>();
    for (const card of cards) {
      const deckKey = card.deck === undefined ? undefined : tagKey(card.deck);
      for (const name of card.tags) {
        const key = tagKey(name);
        const newDeck = key === deckKey && !this.deckKeys.has(key);
        if (newDeck) decks.add(key);
        if ((!this.tagIds.has(key) || newDeck) && !wanted.has(key)) wanted.set(key, name.trim());
      }
    }
    if (wanted.size === 0) return;
    for (const key of decks) this.deckKeys.add(key);
    const keys = [...wanted.keys()];
    const rows = (
      await this.tx.query<{ id: string; name_key: string }>(UPSERT_TAGS, [
        this.ownerId,
        [...wanted.values()],
        keys,
        keys.map((key) => decks.has(key)),
      ])
    ).rows;
    for (const row of rows) this.tagIds.set(row.name_key, row.id);
  }

  private async upsertCards(cards: AnkiCardToImport[]) {
    const rows = (
      await this.tx.query<{ id: string; external_id: string; created: boolean; created_at: Date }>(UPSERT_CARDS, [
        this.ownerId,
        this.now,
        cards.map((card) => card.type),
        cards.map((card) => card.front),
        cards.map((card) => card.back),
        cards.map((card) => card.archived),
        cards.map((card) => card.externalId),
        cards.map((card) => card.note?.noteTypeId ?? null),
        cards.map((card) => JSON.stringify(card.note?.fields ?? [])),
      ])
    ).rows;
    return new Map(rows.map((row) => [row.external_id, row]));
  }

  private async linkTagsAndMedia(cards: AnkiCardToImport[], ids: string[], updated: string[]) {
    const tagPairs: [string[], string[]] = [[], []];
    const mediaPairs: [string[], string[]] = [[], []];
    cards.forEach((card, index) => {
      for (const tagId of new Set(card.tags.map((name) => this.tagIds.get(tagKey(name))!))) {
        tagPairs[0].push(ids[index]!);
        tagPairs[1].push(tagId);
      }
      for (const mediaId of card.mediaIds) {
        mediaPairs[0].push(ids[index]!);
        mediaPairs[1].push(mediaId);
      }
    });
    if (tagPairs[0].length > 0) await this.tx.query(LINK_TAGS, tagPairs);
    if (updated.length > 0) await this.tx.query(UNLINK_MEDIA, [updated]);
    if (mediaPairs[0].length > 0) await this.tx.query(LINK_MEDIA, mediaPairs);
  }

  private async upsertItems(cards: AnkiCardToImport[], ids: string[], updated: Set<string>) {
    const items = cards.flatMap((card, index) => card.items.map((item) => ({ cardId: ids[index]!, card, item })));
    const kept = items.filter(({ cardId }) => updated.has(cardId));
    if (updated.size > 0) {
      await this.tx.query(DROP_ITEMS, [
        [...updated],
        kept.map(({ cardId }) => cardId),
        kept.map(({ item }) => item.ordinal),
      ]);
    }
    if (items.length === 0) return { items, itemIds: new Map<string, string>() };
    await this.stage('import_review_items', STAGE_ITEMS);
    await copyRows(
      this.tx,
      'import_review_items',
      ITEM_COLUMNS,
      items.map(({ cardId, card, item: { ordinal, memory: m } }) => [
        cardId,
        ordinal,
        card.archived,
        stateNumber(m.state),
        m.due.toISOString(),
        m.stability,
        m.difficulty,
        m.elapsedDays,
        m.scheduledDays,
        m.learningStep,
        m.reps,
        m.lapses,
        iso(m.lastReview),
      ]),
    );
    const rows = (await this.tx.query<{ id: string; card_id: string; ordinal: number }>(UPSERT_ITEMS, [this.ownerId]))
      .rows;
    return { items, itemIds: new Map(rows.map((row) => [`${row.card_id}/${row.ordinal}`, row.id])) };
  }

  /** Makes the table `name` for the transaction (`create`), or empties it of the chunk before. */
  private async stage(name: string, create: string) {
    await this.tx.query(this.staged.has(name) ? `TRUNCATE ${name}` : create);
    this.staged.add(name);
  }

  private async insertLogs(items: { cardId: string; item: ItemToImport }[], itemIds: Map<string, string>) {
    const logs = items.flatMap(({ cardId, item }) =>
      item.logs.map((log) => ({ cardId, itemId: itemIds.get(`${cardId}/${item.ordinal}`)!, log })),
    );
    if (logs.length === 0) return 0;
    await this.stage('import_review_logs', STAGE_LOGS);
    await copyRows(
      this.tx,
      'import_review_logs',
      LOG_COLUMNS,
      logs.map(({ cardId, itemId, log }) => [
        reviewLogId(this.ownerId, log.reviewedAt),
        itemId,
        cardId,
        log.rating,
        stateNumber(log.stateBefore),
        stateNumber(log.stateAfter),
        log.reviewedAt.toISOString(),
        log.durationMs,
        log.elapsedDays,
        log.lastElapsedDays,
        log.scheduledDays,
        log.learningStep,
        log.dueAfter.toISOString(),
        JSON.stringify(snapshot(log.previous)),
        JSON.stringify(snapshot(log.after)),
        log.preview,
      ]),
    );
    await this.tx.query(INSERT_LOGS, [this.ownerId]);
    return logs.length;
  }

  private async recordCreated(created: { id: string; created_at: Date }[]) {
    if (created.length === 0) return;
    const actor = { kind: Actor_Kind.KIND_USER, id: this.ownerId };
    const rows = created.map((card) =>
      outboxRow(CardCreated, { cardId: card.id, ownerId: this.ownerId, createdAt: card.created_at }, { actor }),
    );
    await this.tx.query(INSERT_EVENTS, [
      rows.map(({ values }) => values[0]),
      rows.map(({ values }) => values[1]),
      rows.map(({ values }) => values[2].toString('base64')),
      rows.map(({ values }) => values[3]),
    ]);
  }

  private async writeChunk(cards: AnkiCardToImport[]): Promise<BatchWritten> {
    await this.findTags(cards);
    const stored = await this.upsertCards(cards);
    const rows = cards.map((card) => stored.get(card.externalId)!);
    const ids = rows.map((row) => row.id);
    const updated = rows.filter((row) => !row.created).map((row) => row.id);
    await this.linkTagsAndMedia(cards, ids, updated);
    const { items, itemIds } = await this.upsertItems(cards, ids, new Set(updated));
    const reviews = await this.insertLogs(items, itemIds);
    const created = rows.filter((row) => row.created);
    await this.recordCreated(created);
    return { created: created.length, updated: updated.length, reviews };
  }

  /** Writes `cards` (external ids unique within the batch). */
  async write(cards: AnkiCardToImport[]): Promise<BatchWritten> {
    const written = { created: 0, updated: 0, reviews: 0 };
    for (const chunk of inChunks(cards, this.chunkBytes)) {
      const done = await this.writeChunk(chunk);
      written.created += done.created;
      written.updated += done.updated;
      written.reviews += done.reviews;
    }
    return written;
  }
}

/** The writer of an import's batches (see AnkiBatchWriter). */
export const ankiBatchWriter = (tx: Tx, ownerId: string, now: Date, { chunkBytes = WRITE_CHUNK_BYTES } = {}) =>
  new AnkiBatchWriter(tx, ownerId, now, chunkBytes);
