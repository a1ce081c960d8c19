// A card forgotten LEECH_LAPSES times is a leech and gets the tag `leech` (docs/product.md, review item states).
import { LEECH_LAPSES, LEECH_TAG_NAME } from '@engram/contracts/learning';

/** Whether a review (or a run of them) that took the lapses from `before` to `after` made the card a leech. */
export const makesLeech = (before: number, after: number) => before < LEECH_LAPSES && after >= LEECH_LAPSES;

/** $1 owner, $2 their cards (uuid[]) that became leeches: each gets the tag, made if the learner has none yet. */
export const TAG_LEECHES = `
WITH tag AS (
  INSERT INTO tags (id, owner_id, name, name_key) VALUES (gen_random_uuid(), $1, '${LEECH_TAG_NAME}', '${LEECH_TAG_NAME}')
  ON CONFLICT (owner_id, name_key) DO UPDATE SET name = tags.name
  RETURNING id
)
INSERT INTO card_tags (card_id, tag_id) SELECT card_id, tag.id FROM tag, unnest($2::uuid[]) AS c(card_id)
ON CONFLICT DO NOTHING`;
