// Which of a learner's presets schedules a card — the one rule the review path, the due list, the optimizer's
// choice of reviews, the simulator and rescheduling all read. A card belongs to the preset of one of its tags
// (a tag is in at most one preset); when its tags are in several presets, the one made first wins; a card with
// none of them (and a deleted card, whose tags are gone) belongs to the learner's default preset.

/**
 * SQL for the id of the preset that schedules card `card` of learner `owner` (columns or parameters): null only
 * while the learner has no default preset yet (their defaults then apply).
 */
export const cardPresetId = (card: string, owner: string) => `COALESCE(
  (SELECT pt.preset_id FROM card_tags ct
   JOIN preset_tags pt ON pt.tag_id = ct.tag_id
   JOIN presets tp ON tp.id = pt.preset_id
   WHERE ct.card_id = ${card}
   ORDER BY tp.created_at, tp.id LIMIT 1),
  (SELECT dp.id FROM presets dp WHERE dp.owner_id = ${owner} AND dp.is_default))`;

/** Joins `p`, the preset that schedules card `card` of learner `owner` (null columns: none made yet). */
export const cardPresetJoin = (card: string, owner: string) =>
  `LEFT JOIN presets p ON p.id = ${cardPresetId(card, owner)}`;
