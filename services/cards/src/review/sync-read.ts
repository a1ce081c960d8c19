// What a sync's batch of reviews reads inside its transaction, a statement for the whole batch each: the items
// reviewed, locked in the order of their ids (two syncs of one learner never wait on each other in a circle), with
// what schedules each (the learner's settings, the preset of its card) and its card's creation, archived flag and
// shared deck; the review ids already logged, by anyone; the reviews that count of the items a review lands before
// the latest of (late-review.ts); and the numbers the batch's logs take in the order reviews were applied (seq).
import type pg from 'pg';
import { cardPresetJoin } from '../learner/card-preset.js';
import { SETTINGS_COLUMNS, type SettingsRow } from '../learner/settings.js';
import { ITEM_COLUMNS, type ItemRow, type snapshot } from './item-row.js';
import type { StoredLog } from './late-review.js';

export type SyncedItem = ItemRow & SettingsRow & { archived: boolean; card_created_at: Date; deck_id: string | null };

const LOCK_ITEMS = `
SELECT ${ITEM_COLUMNS}, ${SETTINGS_COLUMNS}, i.archived, c.created_at AS card_created_at, c.deck_id::text
FROM review_items i
JOIN cards c ON c.id = i.card_id
LEFT JOIN learner_settings s ON s.owner_id = i.owner_id
${cardPresetJoin('i.card_id', 'i.owner_id')}
WHERE i.id = ANY($1::uuid[]) AND i.owner_id = $2
ORDER BY i.id
FOR UPDATE OF i`;

/** A review id already logged: whose, of which item and rating, and the state it left the item in. */
export interface LoggedReview {
  id: string;
  owner_id: string;
  item_id: string;
  rating: number;
  after: ReturnType<typeof snapshot>;
}

const LOGGED = `
SELECT id::text, owner_id, item_id::text, rating::int, after FROM review_logs WHERE id = ANY($1::uuid[])`;

const HISTORIES = `
SELECT item_id::text, id::text, rating::int, state_before::int, state_after::int, reviewed_at, previous
FROM review_logs
WHERE item_id = ANY($1::uuid[]) AND undone_at IS NULL
ORDER BY item_id, reviewed_at, seq`;

const NEXT_SEQS = `
SELECT nextval(pg_get_serial_sequence('review_logs', 'seq'))::text AS seq FROM generate_series(1, $1::int)`;

/** The owner's items among `itemIds`, locked, by id (one not found is not the owner's, or was deleted). */
export async function lockItems(client: pg.PoolClient, ownerId: string, itemIds: string[]) {
  const { rows } = await client.query<SyncedItem>(LOCK_ITEMS, [itemIds, ownerId]);
  return new Map(rows.map((row) => [row.id, row]));
}

/** The reviews already logged among `reviewIds`, by id. */
export async function loggedReviews(client: pg.PoolClient, reviewIds: string[]) {
  const { rows } = await client.query<LoggedReview>(LOGGED, [reviewIds]);
  return new Map(rows.map((row) => [row.id, row]));
}

/** The reviews that count of each of `itemIds` (locked), in the order of their times. */
export async function histories(client: pg.PoolClient, itemIds: string[]) {
  const byItem = new Map<string, StoredLog[]>(itemIds.map((id) => [id, []]));
  if (itemIds.length === 0) return byItem;
  const { rows } = await client.query<StoredLog & { item_id: string }>(HISTORIES, [itemIds]);
  for (const { item_id, ...log } of rows) byItem.get(item_id)?.push(log);
  return byItem;
}

/** `count` new numbers of the order reviews are applied in (review_logs.seq), ascending. */
export async function nextSeqs(client: pg.PoolClient, count: number): Promise<string[]> {
  if (count === 0) return [];
  const { rows } = await client.query<{ seq: string }>(NEXT_SEQS, [count]);
  return rows
    .map((row) => BigInt(row.seq))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map(String);
}
