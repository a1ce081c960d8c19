// A learner's copies of a shared deck's cards: each copy is an ordinary card of theirs (own review items,
// own FSRS state) that remembers the deck card it copies. A new copy is tagged with the deck's name; an
// edited deck card changes its copies' text and keeps their progress; a copy is archived while its
// learner is not subscribed or its card is withdrawn.
import { TAG_NAME_MAX_LENGTH } from '@engram/contracts/learning';
import { recordCardCreated } from '../events/card-created.js';
import type { Card, DeckCard, Prisma } from '../generated/prisma/client.js';
import { type CardContent, changeContent, insertCard, setArchived } from './card-writes.js';
import { tagKey } from './tag-name.js';

/** The learner's tag named after the deck, created when they have none of that name. */
export async function deckTag(tx: Prisma.TransactionClient, ownerId: string, deckName: string): Promise<string> {
  const name = deckName.trim().slice(0, TAG_NAME_MAX_LENGTH).trim() || 'Shared deck';
  const tag = await tx.tag.upsert({
    where: { ownerId_nameKey: { ownerId, nameKey: tagKey(name) } },
    create: { ownerId, name, nameKey: tagKey(name) },
    update: {},
  });
  return tag.id;
}

/** A new copy of `deckCard` for `ownerId`, tagged `tagId`, with its review items, as CreateCard makes them. */
export async function createCopy(
  tx: Prisma.TransactionClient,
  ownerId: string,
  tagId: string,
  deckCard: DeckCard,
  now: Date,
): Promise<void> {
  const content = { type: deckCard.type, front: deckCard.front, back: deckCard.back, tagIds: [tagId] };
  const card = await insertCard(tx, ownerId, content, now, deckCard);
  await recordCardCreated(tx, card);
}

/** Brings a copy to `deckCard`'s content and to `archived`, keeping the progress of its review items. */
export async function reviseCopy(
  tx: Prisma.TransactionClient,
  copy: Card,
  deckCard: CardContent,
  archived: boolean,
  now: Date,
): Promise<void> {
  // Archived first, so review items that the new text adds are born with the card's flag.
  if (copy.archived !== archived) await setArchived(tx, { ids: [copy.id] }, archived);
  const same = copy.type === deckCard.type && copy.front === deckCard.front && copy.back === deckCard.back;
  if (!same) await changeContent(tx, { ...copy, archived }, deckCard, now);
}

/** Archives every copy that `where` selects (the copies of one deck card, or one learner's of one deck). */
export async function archiveCopies(
  tx: Prisma.TransactionClient,
  where: { deckId: string; originCardId?: string; ownerId?: string },
): Promise<void> {
  const copies = await tx.card.findMany({ where: { ...where, archived: false }, select: { id: true } });
  await setArchived(tx, { ids: copies.map((copy) => copy.id) }, true);
}
