// A tag by the name a learner typed: their own when they have it (names are one per learner whatever the
// case), made when they do not. What a learner types is never refused for already existing, however many tags
// they have (an imported collection brings hundreds, past the first page a picker has loaded).
import { MAX_PAGE_SIZE } from '@engram/contracts/cards';
import { trpcClient } from '../../lib/trpc';
import type { Tag } from './queries';

/** Every tag of the learner by its name in lower case, all pages. */
export async function tagsByName(): Promise<Map<string, Tag>> {
  const tags = new Map<string, Tag>();
  let cursor: string | null = null;
  do {
    const page: { items: Tag[]; nextCursor: string | null } = await trpcClient.cards.listTags.query({
      pageSize: MAX_PAGE_SIZE,
      cursor,
    });
    for (const tag of page.items) tags.set(tag.name.toLowerCase(), tag);
    cursor = page.nextCursor;
  } while (cursor);
  return tags;
}

const exists = (error: unknown) => (error as { data?: { reason?: unknown } } | null)?.data?.reason === 'TAG_EXISTS';

/** The learner's tag called `name`, made if they have none; `known` spares the look-up when it holds it. */
export async function tagNamed(name: string, known?: Map<string, Tag>): Promise<Tag> {
  const key = name.trim().toLowerCase();
  const found = known?.get(key);
  if (found) return found;
  try {
    return await trpcClient.cards.createTag.mutate({ name: name.trim() });
  } catch (error) {
    // Made meanwhile, or on a page not loaded yet: the one there is.
    if (!exists(error)) throw error;
    const tag = (await tagsByName()).get(key);
    if (!tag) throw error;
    return tag;
  }
}
