// Saving the chosen proposals: their tag names become the learner's tags (existing ones reused, missing
// ones created), then every card goes in one cards.createMany, all or none.
import { tagNamed, tagsByName } from '../../entities/cards/tag-named';
import { trpcClient } from '../../lib/trpc';
import { type Draft, tagNamesOf } from './drafts';

async function tagIdsByName(names: string[]): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  if (names.length === 0) return ids;
  const known = await tagsByName();
  for (const name of names) ids.set(name.toLowerCase(), (await tagNamed(name, known)).id);
  return ids;
}

export async function saveDrafts(drafts: Draft[], idempotencyKey: string): Promise<number> {
  const ids = await tagIdsByName([...new Set(drafts.flatMap(tagNamesOf))]);
  const { items } = await trpcClient.cards.createMany.mutate({
    idempotencyKey,
    cards: drafts.map((draft) => ({
      type: draft.type,
      front: draft.front.trim(),
      back: draft.back.trim(),
      tagIds: tagNamesOf(draft).flatMap((name) => ids.get(name.toLowerCase()) ?? []),
    })),
  });
  return items.length;
}
