// BulkEdit and UndoBulkEdit: one change to many of the learner's cards (named, or every card a search finds), in
// one transaction with a snapshot of what it changed (bulk_edits), which UndoBulkEdit puts back, once, for
// BULK_UNDO_MINUTES:
// - add_tags, remove_tags: the card-tag links added or removed (at most MAX_TAGS_PER_CARD tags a card);
// - archive, unarchive: the cards whose flag changed (their review items follow);
// - delete: the cards' rows, review items, tag and file links (their past reviews stay in the history, as a
//   single delete leaves them); undone, they come back with their ids, numbers and progress;
// - set_due: every review item due on a day from `dueFromDays` to `dueToDays` from the learner's today, spread at
//   random as Anki's "Set due date" spreads them; forget: every review item new again, its progress reset;
//   both keep the items' rows as they were;
// - set_preset: presets follow tags (a card takes the preset of its tags), so the cards lose the tags of every
//   other preset and take the chosen preset's first tag (the default preset: only the first part).

import {
  BULK_EDIT_MAX_CARDS,
  BULK_UNDO_MINUTES,
  type BulkEditAction,
  bulkEditInput,
  undoBulkEditInput,
} from '@engram/contracts/browse';
import { MAX_TAGS_PER_CARD } from '@engram/contracts/learning';
import { FailedPrecondition, Invalid, NotFound } from '@engram/kit/errors';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type * as Proto from '@engram/proto/cards/v1/browse';
import type pg from 'pg';
import type { Stores } from '../db.js';
import { learnerDay } from '../learner/learner-day.js';
import { searchedCards } from './browse-cards.js';

type Pair = [cardId: string, tagId: string];

/** What a bulk edit changed, to put back. */
type Snapshot =
  | { kind: 'tags'; added: Pair[]; removed: Pair[] }
  | { kind: 'archived'; cardIds: string[]; archived: boolean }
  | { kind: 'deleted'; cards: unknown[]; items: unknown[]; tags: unknown[]; media: unknown[] }
  | { kind: 'items'; items: unknown[] };

interface Edit {
  snapshot: Snapshot;
  changed: number;
}

const TOO_MANY_TAGS = () => new Invalid(`A card can have at most ${MAX_TAGS_PER_CARD} tags.`, 'TOO_MANY_TAGS');

async function linkTags(client: pg.PoolClient, cardIds: string[], tagIds: string[]): Promise<Pair[]> {
  if (tagIds.length === 0) return [];
  const { rows } = await client.query<{ card_id: string; tag_id: string }>(
    `INSERT INTO card_tags (card_id, tag_id)
     SELECT card.id, tag.id FROM unnest($1::uuid[]) AS card(id) CROSS JOIN unnest($2::uuid[]) AS tag(id)
     ON CONFLICT DO NOTHING RETURNING card_id, tag_id`,
    [cardIds, tagIds],
  );
  const { rowCount } = await client.query(
    `SELECT 1 FROM card_tags WHERE card_id = ANY($1::uuid[]) GROUP BY card_id HAVING count(*) > $2 LIMIT 1`,
    [[...new Set(rows.map((row) => row.card_id))], MAX_TAGS_PER_CARD],
  );
  if (rowCount) throw TOO_MANY_TAGS();
  return rows.map((row) => [row.card_id, row.tag_id]);
}

async function unlinkTags(client: pg.PoolClient, cardIds: string[], tagIds: string[]): Promise<Pair[]> {
  if (tagIds.length === 0) return [];
  const { rows } = await client.query<{ card_id: string; tag_id: string }>(
    'DELETE FROM card_tags WHERE card_id = ANY($1::uuid[]) AND tag_id = ANY($2::uuid[]) RETURNING card_id, tag_id',
    [cardIds, tagIds],
  );
  return rows.map((row) => [row.card_id, row.tag_id]);
}

const cardsOf = (pairs: Pair[]) => new Set(pairs.map(([cardId]) => cardId)).size;

async function ownedTags(client: pg.PoolClient, ownerId: string, tagIds: string[]): Promise<string[]> {
  const wanted = [...new Set(tagIds.map((id) => id.toLowerCase()))];
  const { rows } = await client.query<{ id: string }>(
    'SELECT id FROM tags WHERE owner_id = $1 AND id = ANY($2::uuid[])',
    [ownerId, wanted],
  );
  if (rows.length !== wanted.length) throw new NotFound('Tag not found.', 'TAG_NOT_FOUND');
  return wanted;
}

const ITEM_COLUMNS =
  'id, due, state, stability, difficulty, elapsed_days, scheduled_days, learning_step, reps, lapses, last_review';

async function itemsOf(client: pg.PoolClient, cardIds: string[]): Promise<unknown[]> {
  const { rows } = await client.query<{ item: unknown }>(
    `SELECT json_build_object(${ITEM_COLUMNS.split(', ')
      .map((column) => `'${column}', ${column}`)
      .join(', ')}) AS item FROM review_items WHERE card_id = ANY($1::uuid[])`,
    [cardIds],
  );
  return rows.map((row) => row.item);
}

type Input = ReturnType<typeof bulkEditInput.parse>;

async function edit(
  stores: Stores,
  client: pg.PoolClient,
  ownerId: string,
  cardIds: string[],
  input: Input,
): Promise<Edit> {
  const action: BulkEditAction = input.action;
  switch (action) {
    case 'add_tags': {
      const added = await linkTags(client, cardIds, await ownedTags(client, ownerId, input.tagIds ?? []));
      return { snapshot: { kind: 'tags', added, removed: [] }, changed: cardsOf(added) };
    }
    case 'remove_tags': {
      const removed = await unlinkTags(client, cardIds, await ownedTags(client, ownerId, input.tagIds ?? []));
      return { snapshot: { kind: 'tags', added: [], removed }, changed: cardsOf(removed) };
    }
    case 'archive':
    case 'unarchive': {
      const archived = action === 'archive';
      const { rows } = await client.query<{ id: string }>(
        'UPDATE cards SET archived = $3, updated_at = now() WHERE owner_id = $1 AND id = ANY($2::uuid[]) AND archived <> $3 RETURNING id',
        [ownerId, cardIds, archived],
      );
      const changed = rows.map((row) => row.id);
      await client.query('UPDATE review_items SET archived = $2 WHERE card_id = ANY($1::uuid[])', [changed, archived]);
      return { snapshot: { kind: 'archived', cardIds: changed, archived }, changed: changed.length };
    }
    case 'delete': {
      const rowsOf = async (sql: string) =>
        (await client.query<{ row: unknown }>(sql, [cardIds])).rows.map((r) => r.row);
      const cards = await rowsOf('SELECT to_jsonb(c) AS row FROM cards c WHERE c.id = ANY($1::uuid[])');
      const items = await rowsOf('SELECT to_jsonb(i) AS row FROM review_items i WHERE i.card_id = ANY($1::uuid[])');
      const tags = await rowsOf('SELECT to_jsonb(ct) AS row FROM card_tags ct WHERE ct.card_id = ANY($1::uuid[])');
      const media = await rowsOf('SELECT to_jsonb(cm) AS row FROM card_media cm WHERE cm.card_id = ANY($1::uuid[])');
      await client.query('DELETE FROM cards WHERE owner_id = $1 AND id = ANY($2::uuid[])', [ownerId, cardIds]);
      return { snapshot: { kind: 'deleted', cards, items, tags, media }, changed: cards.length };
    }
    case 'set_due': {
      const items = await itemsOf(client, cardIds);
      const { start } = await learnerDay(stores, ownerId);
      const from = input.dueFromDays ?? 0;
      const to = input.dueToDays ?? from;
      await client.query(
        `UPDATE review_items SET due = $2::timestamptz + (($3::int + floor(random() * ($4::int - $3::int + 1)))::int * interval '1 day')
         WHERE card_id = ANY($1::uuid[])`,
        [cardIds, start, from, to],
      );
      return { snapshot: { kind: 'items', items }, changed: cardIds.length };
    }
    case 'forget': {
      const items = await itemsOf(client, cardIds);
      await client.query(
        `UPDATE review_items SET state = 0, due = now(), stability = 0, difficulty = 0, elapsed_days = 0,
           scheduled_days = 0, learning_step = 0, reps = 0, lapses = 0, last_review = NULL
         WHERE card_id = ANY($1::uuid[])`,
        [cardIds],
      );
      return { snapshot: { kind: 'items', items }, changed: cardIds.length };
    }
    case 'set_preset': {
      const { rows: presets } = await client.query<{ id: string; is_default: boolean; tag_ids: string[] }>(
        `SELECT p.id, p.is_default, COALESCE(array_agg(t.id ORDER BY t.name_key) FILTER (WHERE t.id IS NOT NULL), '{}') AS tag_ids
         FROM presets p LEFT JOIN preset_tags pt ON pt.preset_id = p.id LEFT JOIN tags t ON t.id = pt.tag_id
         WHERE p.owner_id = $1 GROUP BY p.id`,
        [ownerId],
      );
      const chosen = presets.find((preset) => preset.id === input.presetId?.toLowerCase());
      if (!chosen) throw new NotFound('Preset not found.', 'PRESET_NOT_FOUND');
      if (!chosen.is_default && chosen.tag_ids.length === 0) {
        throw new FailedPrecondition(
          'This preset has no tags yet: give it a tag in Settings, then move cards to it.',
          'PRESET_WITHOUT_TAGS',
        );
      }
      const others = presets.filter((preset) => preset.id !== chosen.id).flatMap((preset) => preset.tag_ids);
      const removed = await unlinkTags(client, cardIds, others);
      const added = chosen.is_default ? [] : await linkTags(client, cardIds, chosen.tag_ids.slice(0, 1));
      return {
        snapshot: { kind: 'tags', added, removed },
        changed: new Set([...added, ...removed].map(([id]) => id)).size,
      };
    }
  }
}

/** The ids of the learner's cards the edit names: those of `cardIds` they own, or every card `query` finds. */
async function targetCards(stores: Stores, client: pg.PoolClient, ownerId: string, input: Input): Promise<string[]> {
  if (input.cardIds) {
    const { rows } = await client.query<{ id: string }>(
      'SELECT id FROM cards WHERE owner_id = $1 AND id = ANY($2::uuid[]) FOR UPDATE',
      [ownerId, [...new Set(input.cardIds.map((id) => id.toLowerCase()))]],
    );
    // None of them the learner's (another's ids, or all deleted meanwhile): refused as a single card's edit is.
    if (rows.length === 0) throw new NotFound('Card not found.', 'CARD_NOT_FOUND');
    return rows.map((row) => row.id);
  }
  const { where, params } = await searchedCards(stores, ownerId, input.query ?? '');
  const { rows } = await client.query<{ id: string }>(
    `SELECT c.id FROM cards c WHERE ${where} LIMIT $${params.length + 2} FOR UPDATE`,
    [ownerId, ...params, BULK_EDIT_MAX_CARDS + 1],
  );
  if (rows.length > BULK_EDIT_MAX_CARDS) {
    throw new Invalid(
      `The search finds more than ${BULK_EDIT_MAX_CARDS.toLocaleString('en')} cards: narrow it to change them at once.`,
      'TOO_MANY_CARDS',
    );
  }
  return rows.map((row) => row.id);
}

export function bulkEdit(stores: Stores) {
  return async (request: Proto.BulkEditRequest, ctx: CallContext): Promise<Proto.BulkEditResponse> => {
    const ownerId = ctx.caller.userId;
    const input = parseInput(bulkEditInput, {
      action: request.action,
      ...(request.cardIds.length > 0 ? { cardIds: request.cardIds } : { query: request.query }),
      ...(request.tagIds.length > 0 && { tagIds: request.tagIds }),
      ...(request.action === 'set_due' && { dueFromDays: request.dueFromDays, dueToDays: request.dueToDays }),
      ...(request.presetId && { presetId: request.presetId }),
    });
    const client = await stores.pool.connect();
    try {
      await client.query('BEGIN');
      const cardIds = await targetCards(stores, client, ownerId, input);
      const { snapshot, changed } =
        cardIds.length > 0 ? await edit(stores, client, ownerId, cardIds, input) : { snapshot: null, changed: 0 };
      let undoId = '';
      if (snapshot && changed > 0) {
        await client.query(
          `DELETE FROM bulk_edits WHERE owner_id = $1 AND created_at < now() - make_interval(mins => $2)`,
          [ownerId, BULK_UNDO_MINUTES],
        );
        const { rows } = await client.query<{ id: string }>(
          `INSERT INTO bulk_edits (id, owner_id, action, snapshot, changed) VALUES (gen_random_uuid(), $1, $2, $3, $4) RETURNING id`,
          [ownerId, input.action, JSON.stringify(snapshot), changed],
        );
        undoId = rows[0]?.id ?? '';
      }
      await client.query('COMMIT');
      ctx.logger.info({ action: input.action, changed }, 'cards changed in bulk');
      return { undoId, changed };
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    } finally {
      client.release();
    }
  };
}

async function putBack(client: pg.PoolClient, ownerId: string, snapshot: Snapshot): Promise<number> {
  switch (snapshot.kind) {
    case 'tags': {
      const pairs = (list: Pair[]) => [list.map(([cardId]) => cardId), list.map(([, tagId]) => tagId)];
      const [addedCards, addedTags] = pairs(snapshot.added);
      await client.query(
        `DELETE FROM card_tags ct USING unnest($1::uuid[], $2::uuid[]) AS pair(card_id, tag_id)
         WHERE ct.card_id = pair.card_id AND ct.tag_id = pair.tag_id`,
        [addedCards, addedTags],
      );
      const [removedCards, removedTags] = pairs(snapshot.removed);
      await client.query(
        `INSERT INTO card_tags (card_id, tag_id)
         SELECT pair.card_id, pair.tag_id FROM unnest($1::uuid[], $2::uuid[]) AS pair(card_id, tag_id)
         WHERE EXISTS (SELECT 1 FROM cards c WHERE c.id = pair.card_id AND c.owner_id = $3)
           AND EXISTS (SELECT 1 FROM tags t WHERE t.id = pair.tag_id AND t.owner_id = $3)
         ON CONFLICT DO NOTHING`,
        [removedCards, removedTags, ownerId],
      );
      return new Set([...snapshot.added, ...snapshot.removed].map(([cardId]) => cardId)).size;
    }
    case 'archived': {
      const { rowCount } = await client.query(
        'UPDATE cards SET archived = $3, updated_at = now() WHERE owner_id = $1 AND id = ANY($2::uuid[])',
        [ownerId, snapshot.cardIds, !snapshot.archived],
      );
      await client.query('UPDATE review_items SET archived = $2 WHERE card_id = ANY($1::uuid[]) AND owner_id = $3', [
        snapshot.cardIds,
        !snapshot.archived,
        ownerId,
      ]);
      return rowCount ?? 0;
    }
    case 'deleted': {
      const { rowCount } = await client.query(
        `INSERT INTO cards SELECT * FROM jsonb_populate_recordset(NULL::cards, $1::jsonb) r WHERE r.owner_id = $2
         ON CONFLICT DO NOTHING`,
        [JSON.stringify(snapshot.cards), ownerId],
      );
      await client.query(
        `INSERT INTO review_items SELECT * FROM jsonb_populate_recordset(NULL::review_items, $1::jsonb) r
         WHERE r.owner_id = $2 AND EXISTS (SELECT 1 FROM cards c WHERE c.id = r.card_id) ON CONFLICT DO NOTHING`,
        [JSON.stringify(snapshot.items), ownerId],
      );
      await client.query(
        `INSERT INTO card_tags SELECT * FROM jsonb_populate_recordset(NULL::card_tags, $1::jsonb) r
         WHERE EXISTS (SELECT 1 FROM cards c WHERE c.id = r.card_id AND c.owner_id = $2)
           AND EXISTS (SELECT 1 FROM tags t WHERE t.id = r.tag_id AND t.owner_id = $2) ON CONFLICT DO NOTHING`,
        [JSON.stringify(snapshot.tags), ownerId],
      );
      await client.query(
        `INSERT INTO card_media SELECT * FROM jsonb_populate_recordset(NULL::card_media, $1::jsonb) r
         WHERE EXISTS (SELECT 1 FROM cards c WHERE c.id = r.card_id AND c.owner_id = $2)
           AND EXISTS (SELECT 1 FROM media m WHERE m.id = r.media_id) ON CONFLICT DO NOTHING`,
        [JSON.stringify(snapshot.media), ownerId],
      );
      return rowCount ?? 0;
    }
    case 'items': {
      const { rows } = await client.query<{ card_id: string }>(
        `UPDATE review_items ri SET due = s.due, state = s.state, stability = s.stability, difficulty = s.difficulty,
           elapsed_days = s.elapsed_days, scheduled_days = s.scheduled_days, learning_step = s.learning_step,
           reps = s.reps, lapses = s.lapses, last_review = s.last_review
         FROM jsonb_to_recordset($1::jsonb) AS s(id uuid, due timestamptz, state smallint, stability float8,
           difficulty float8, elapsed_days int, scheduled_days int, learning_step smallint, reps int, lapses int,
           last_review timestamptz)
         WHERE ri.id = s.id AND ri.owner_id = $2 RETURNING ri.card_id`,
        [JSON.stringify(snapshot.items), ownerId],
      );
      return new Set(rows.map((row) => row.card_id)).size;
    }
  }
}

export function undoBulkEdit(stores: Stores) {
  return async (request: Proto.UndoBulkEditRequest, ctx: CallContext): Promise<Proto.UndoBulkEditResponse> => {
    const ownerId = ctx.caller.userId;
    const { undoId } = parseInput(undoBulkEditInput, request);
    const client = await stores.pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<{ snapshot: Snapshot }>(
        `SELECT snapshot FROM bulk_edits WHERE id = $1 AND owner_id = $2 AND undone_at IS NULL
           AND created_at > now() - make_interval(mins => $3) FOR UPDATE`,
        [undoId, ownerId, BULK_UNDO_MINUTES],
      );
      const edit = rows[0];
      if (!edit) throw new NotFound('This change can no longer be undone.', 'UNDO_EXPIRED');
      const restored = await putBack(client, ownerId, edit.snapshot);
      await client.query('UPDATE bulk_edits SET undone_at = now() WHERE id = $1', [undoId]);
      await client.query('COMMIT');
      ctx.logger.info({ restored }, 'bulk edit undone');
      return { restored };
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    } finally {
      client.release();
    }
  };
}
