// Saving the chosen proposals: their tag names become the learner's tags (existing ones reused, missing
// ones created), then every card goes in one cards.createMany, all or none.
import { trpcClient } from '../../lib/trpc';
import { type Draft, tagNamesOf } from './drafts';

const TAG_PAGE = 100;

async function tagIdsByName(names: string[]): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  if (names.length === 0) return ids;
  let cursor: string | null = null;
  do {
    const page: { items: { id: string; name: string }[]; nextCursor: string | null } =
      await trpcClient.cards.listTags.query({ pageSize: TAG_PAGE, cursor });
    for (const tag of page.items) ids.set(tag.name.toLowerCase(), tag.id);
    cursor = page.nextCursor;
  } while (cursor);
  for (const name of names) {
    if (ids.has(name.toLowerCase())) continue;
    const tag = await trpcClient.cards.createTag.mutate({ name });
    ids.set(tag.name.toLowerCase(), tag.id);
  }
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
