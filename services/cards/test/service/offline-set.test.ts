// What a device keeps to practise offline: each preset's new cards for the horizon, whatever order the presets'
// cards were made in.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CardsHarness, startCardsHarness } from '../harness.js';

let cards: CardsHarness;

beforeAll(async () => {
  cards = await startCardsHarness();
});
afterAll(() => cards?.stop());

describe('the offline set', () => {
  it("keeps each preset's new cards for the horizon, the earliest of each, even those made after another preset's", async () => {
    const learner = cards.as(`offline-set-${randomUUID().slice(0, 8)}`);
    // Twelve cards of the default preset first, then three of a tag preset, one at a time (each due after the last).
    const made: string[] = [];
    for (let n = 0; n < 12; n += 1)
      made.push((await learner.createCard({ front: `default ${n}`, back: 'd' })).card!.id);
    const { tag } = await learner.createTag({ name: 'verbs' });
    const verbs: string[] = [];
    for (let n = 0; n < 3; n += 1)
      verbs.push((await learner.createCard({ front: `verb ${n}`, back: 'v', tagIds: [tag!.id] })).card!.id);
    await learner.updatePreset({ fields: ['new_per_day'], preset: { newPerDay: 2 } });
    const { id: verbsPreset } = await learner.createPreset({
      fields: ['name', 'tag_ids', 'new_per_day'],
      preset: { name: 'Verbs', tagIds: [tag!.id], newPerDay: 1 },
    });

    const { items } = await learner.listOffline({ horizonDays: 2 });
    const kept = items.map(({ item, presetId }) => [item!.cardId, presetId]);
    // Two a day of the default preset's for two days, one a day of the verbs' for two days.
    expect(kept).toEqual([
      ...made.slice(0, 4).map((cardId) => [cardId, expect.any(String)]),
      ...verbs.slice(0, 2).map((cardId) => [cardId, verbsPreset]),
    ]);
  });
});
