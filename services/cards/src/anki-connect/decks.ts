// Decks and tags for Anki's tools. A deck is one of the learner's tags (`Parent::Child` a tag of that name, as
// the Anki import makes them); a tag a deck is used as (createDeck, addNote, changeDeck) is marked as one
// (anki_deck), so an Anki export puts its cards back in that deck and a card's deck is that tag. Anki's "Default"
// deck is always there: it holds the cards without a deck tag, and adding to it adds no tag.
import { MAX_TAGS_PER_CARD, TAG_NAME_MAX_LENGTH } from '@engram/contracts/learning';
import { isUniqueViolation } from '@engram/kit/db';
import type pg from 'pg';
import { tagKey } from '../domain/tag-name.js';
import type { Prisma } from '../generated/prisma/client.js';
import { ankiError } from './anki-error.js';

export const DEFAULT_DECK = 'Default';
/** The id AnkiConnect answers for Default, as in Anki. */
export const DEFAULT_DECK_ID = 1;

export const isDefaultDeck = (name: string) => tagKey(name) === tagKey(DEFAULT_DECK);

/** SQL: the deck of card `c` (its deck tag first, then its first tag by name, else Default). */
export const DECK_OF_CARD = `COALESCE((SELECT t.name FROM card_tags ct JOIN tags t ON t.id = ct.tag_id
  WHERE ct.card_id = c.id ORDER BY t.anki_deck DESC, t.name_key LIMIT 1), '${DEFAULT_DECK}')`;

/** The learner's decks: Default, then their tags by name, with the ids Anki's tools see. */
export async function decksOf(pool: pg.Pool, ownerId: string): Promise<{ name: string; id: number }[]> {
  const { rows } = await pool.query<{ name: string; number: string }>(
    'SELECT name, number FROM tags WHERE owner_id = $1 ORDER BY name_key',
    [ownerId],
  );
  const decks = rows.map((row) => ({ name: row.name, id: Number(row.number) }));
  return decks.some((deck) => isDefaultDeck(deck.name))
    ? decks
    : [{ name: DEFAULT_DECK, id: DEFAULT_DECK_ID }, ...decks];
}

/** A tag name as a deck or tag name of Anki's: trimmed, within the tag limit. */
export function checkedTagName(name: unknown): string {
  const text = typeof name === 'string' ? name.trim() : '';
  if (text === '') throw ankiError('a deck or tag name cannot be empty');
  if (text.length > TAG_NAME_MAX_LENGTH) {
    throw ankiError(`a deck or tag name is at most ${TAG_NAME_MAX_LENGTH} characters: ${text.slice(0, 40)}…`);
  }
  return text;
}

/**
 * The ids of the learner's tags named `names` (in any case), made where missing; those in `decks` are marked as
 * decks. Default names no tag.
 */
export async function tagIdsFor(
  tx: Prisma.TransactionClient,
  ownerId: string,
  names: readonly string[],
  decks: readonly string[] = [],
): Promise<string[]> {
  const wanted = new Map<string, { name: string; deck: boolean }>();
  for (const name of [...decks, ...names]) {
    const key = tagKey(name);
    if (decks.includes(name) && isDefaultDeck(name)) continue;
    if (!wanted.has(key)) wanted.set(key, { name, deck: decks.includes(name) });
  }
  if (wanted.size === 0) return [];
  const keys = [...wanted.keys()];
  const deckKeys = keys.filter((key) => wanted.get(key)?.deck);
  const existing = await tx.tag.findMany({ where: { ownerId, nameKey: { in: keys } } });
  const missing = keys.filter((key) => !existing.some((tag) => tag.nameKey === key));
  if (missing.length > 0) {
    try {
      await tx.tag.createMany({
        data: missing.map((key) => ({
          ownerId,
          name: wanted.get(key)?.name ?? key,
          nameKey: key,
          ankiDeck: deckKeys.includes(key),
        })),
        skipDuplicates: true,
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  if (deckKeys.length > 0) {
    await tx.tag.updateMany({
      where: { ownerId, nameKey: { in: deckKeys }, ankiDeck: false },
      data: { ankiDeck: true },
    });
  }
  const tags = await tx.tag.findMany({ where: { ownerId, nameKey: { in: keys } }, select: { id: true } });
  return tags.map((tag) => tag.id);
}

/** Refuses a card that would carry more tags than a card may. */
export function assertTagCount(count: number): void {
  if (count > MAX_TAGS_PER_CARD) throw ankiError(`a note can have at most ${MAX_TAGS_PER_CARD} tags and decks`);
}

/** Anki's tags as a space-separated string or a list (addTags, removeTags, addNote), each trimmed. */
export function tagList(value: unknown): string[] {
  const parts = Array.isArray(value) ? value.map(String) : typeof value === 'string' ? value.split(/\s+/) : [];
  return [...new Set(parts.map((part) => part.trim()).filter(Boolean))].map(checkedTagName);
}
