// Writing imported cards inside the import's one transaction: a card seen before (the same external id: an
// Anki note's guid, a CSV row's content) is updated and keeps its progress, as an edit does; a new one is
// created as CreateCard creates it (review items, tags, CardCreated). Tags are found or created by name.
import { createHash } from 'node:crypto';
import type { CardType } from '@engram/contracts/learning';
import { changeContent, insertCard, setArchived } from '../domain/card-writes.js';
import { tagKey } from '../domain/tag-name.js';
import { recordCardCreated } from '../events/card-created.js';
import type { Prisma } from '../generated/prisma/client.js';

export interface CardToImport {
  externalId: string;
  type: CardType;
  front: string;
  back: string;
  tags: string[];
  archived: boolean;
}

/** A CSV row's external id: its content, so the same row imported again is the same card. */
export const csvExternalId = (card: { type: string; front: string; back: string }) =>
  `csv:${createHash('sha256').update(`${card.type}\u0000${card.front}\u0000${card.back}`).digest('hex')}`;

/** The ids of the learner's tags of these names, each created when they have none of that name. */
async function tagIdsOf(tx: Prisma.TransactionClient, ownerId: string, names: string[], known: Map<string, string>) {
  const ids: string[] = [];
  for (const name of names) {
    const key = tagKey(name);
    let id = known.get(key);
    if (!id) {
      const tag = await tx.tag.upsert({
        where: { ownerId_nameKey: { ownerId, nameKey: key } },
        create: { ownerId, name: name.trim(), nameKey: key },
        update: {},
      });
      id = tag.id;
      known.set(key, id);
    }
    ids.push(id);
  }
  return [...new Set(ids)];
}

export interface ImportWriter {
  write(card: CardToImport): Promise<'created' | 'updated'>;
}

/** A writer of imported cards for `ownerId` inside `tx`, remembering the tags it has found. */
export function importWriter(tx: Prisma.TransactionClient, ownerId: string, now: Date): ImportWriter {
  const tags = new Map<string, string>();
  return {
    async write(card) {
      const tagIds = await tagIdsOf(tx, ownerId, card.tags, tags);
      const existing = await tx.card.findFirst({ where: { ownerId, externalId: card.externalId } });
      if (!existing) {
        const created = await insertCard(tx, ownerId, { ...card, tagIds }, now);
        await recordCardCreated(tx, created);
        return 'created';
      }
      if (existing.archived !== card.archived) await setArchived(tx, { ids: [existing.id] }, card.archived);
      await changeContent(tx, { ...existing, archived: card.archived }, card, now);
      await tx.cardTag.createMany({
        data: tagIds.map((tagId) => ({ cardId: existing.id, tagId })),
        skipDuplicates: true,
      });
      return 'updated';
    },
  };
}
