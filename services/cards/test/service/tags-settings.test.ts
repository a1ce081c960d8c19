// Tags (unique per learner whatever the case), searching cards by text and tag, and the learner's
// scheduling settings.
import { randomUUID } from 'node:crypto';
import { DEFAULT_SETTINGS } from '@engram/contracts/learning';
import { grpcFailure } from '@engram/testkit/grpc';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CardsHarness, startCardsHarness } from '../harness.js';

let cards: CardsHarness;

beforeAll(async () => {
  cards = await startCardsHarness();
});
afterAll(() => cards?.stop());

const newLearner = (name: string) => cards.as(`${name}-${randomUUID().slice(0, 8)}`);

describe('tags', () => {
  it('lists a learner’s tags by name, 50 to a page by default', async () => {
    const learner = newLearner('many-tags');
    const names = Array.from({ length: 55 }, (_, i) => `tag ${String(i).padStart(2, '0')}`);
    for (const name of [...names].reverse()) await learner.createTag({ name });
    const first = await learner.listTags();
    expect(first.items.map((tag) => tag.name)).toEqual(names.slice(0, 50));
    const second = await learner.listTags({ cursor: first.nextCursor });
    expect(second.items.map((tag) => tag.name)).toEqual(names.slice(50));
    expect(second.nextCursor).toBe('');
  });

  it('refuses a second tag with the same name in another case', async () => {
    const learner = newLearner('dupes');
    await learner.createTag({ name: 'Biology' });
    const error = await grpcFailure(learner.createTag({ name: '  biology ' }));
    expect(error.code).toBe(status.ALREADY_EXISTS);
    expect(error.message).toBe('A tag with this name already exists.');
    expect(error.reason).toBe('TAG_EXISTS');
  });

  it('lets two learners have tags of the same name', async () => {
    await newLearner('a').createTag({ name: 'Shared name' });
    const { tag } = await newLearner('b').createTag({ name: 'Shared name' });
    expect(tag?.name).toBe('Shared name');
  });

  it('renames a tag and deletes it from every card', async () => {
    const learner = newLearner('rename');
    const { tag } = await learner.createTag({ name: 'Chem' });
    const { card } = await learner.createCard({ front: 'H2O', back: 'water', tagIds: [tag!.id] });
    expect((await learner.renameTag({ id: tag!.id, name: 'Chemistry' })).tag?.name).toBe('Chemistry');
    await learner.deleteTag({ id: tag!.id });
    const { items } = await learner.listCards();
    expect(items.find((c) => c.id === card!.id)?.tags).toEqual([]);
  });

  it("refuses to put another learner's tag on a card, or to rename or delete it", async () => {
    const { tag } = await newLearner('owner').createTag({ name: 'mine' });
    const thief = newLearner('thief');
    for (const call of [
      () => thief.createCard({ front: 'f', back: 'b', tagIds: [tag!.id] }),
      () => thief.renameTag({ id: tag!.id, name: 'stolen' }),
      () => thief.deleteTag({ id: tag!.id }),
    ]) {
      const error = await grpcFailure(call());
      expect(error.code).toBe(status.NOT_FOUND);
      expect(error.message).toBe('Tag not found.');
    }
    expect((await thief.listCards()).items).toEqual([]);
  });
});

describe('searching cards', () => {
  it('finds cards by text in front or back, whatever the case, and by every given tag', async () => {
    const learner = newLearner('search');
    const { tag: bio } = await learner.createTag({ name: 'bio' });
    const { tag: exam } = await learner.createTag({ name: 'exam' });
    await learner.createCard({ front: 'Mitochondria', back: 'powerhouse of the cell', tagIds: [bio!.id] });
    await learner.createCard({ front: 'Ribosome', back: 'makes proteins', tagIds: [bio!.id, exam!.id] });
    await learner.createCard({ front: 'Cell wall', back: 'plants', tagIds: [exam!.id] });
    const fronts = async (request: object) => (await learner.listCards(request)).items.map((c) => c.front).sort();
    expect(await fronts({ query: 'CELL' })).toEqual(['Cell wall', 'Mitochondria']);
    expect(await fronts({ tagIds: [bio!.id] })).toEqual(['Mitochondria', 'Ribosome']);
    expect(await fronts({ tagIds: [bio!.id, exam!.id] })).toEqual(['Ribosome']);
    expect(await fronts({ query: 'protein', tagIds: [exam!.id] })).toEqual(['Ribosome']);
  });

  it('ignores accents and case: "cafe" finds "Café", "ÉTÉ" finds "été"', async () => {
    const learner = newLearner('accents');
    await learner.createCard({ front: 'Café', back: 'coffee' });
    await learner.createCard({ front: 'summer', back: 'l’été' });
    await learner.createCard({ front: 'São Paulo', back: 'a city' });
    await learner.createCard({ front: 'Tea', back: 'chá' });
    const fronts = async (query: string) => (await learner.listCards({ query })).items.map((c) => c.front).sort();
    expect(await fronts('cafe')).toEqual(['Café']);
    expect(await fronts('CAFÉ')).toEqual(['Café']);
    expect(await fronts('ÉTÉ')).toEqual(['summer']);
    expect(await fronts('ete')).toEqual(['summer']);
    expect(await fronts('sao paulo')).toEqual(['São Paulo']);
    expect(await fronts('cha')).toEqual(['Tea']);
  });

  it('finds cards by the names of their tags, accents and case aside', async () => {
    const learner = newLearner('tag-search');
    const { tag: anatomy } = await learner.createTag({ name: 'Anatomía' });
    const { tag: other } = await learner.createTag({ name: 'history' });
    await learner.createCard({ front: 'Femur', back: 'thigh bone', tagIds: [anatomy!.id] });
    await learner.createCard({ front: 'Waterloo', back: '1815', tagIds: [other!.id] });
    await learner.createCard({ front: 'Untagged', back: 'nothing' });
    const fronts = async (request: object) => (await learner.listCards(request)).items.map((c) => c.front).sort();
    expect(await fronts({ query: 'anatomia' })).toEqual(['Femur']);
    expect(await fronts({ query: 'HIST' })).toEqual(['Waterloo']);
    expect(await fronts({ query: 'history', tagIds: [anatomy!.id] })).toEqual([]);
  });

  it('reads % and _ in the search text literally', async () => {
    const learner = newLearner('literal');
    await learner.createCard({ front: '50% off', back: 'sale' });
    await learner.createCard({ front: '50 cents', back: 'coin' });
    await learner.createCard({ front: 'snake_case', back: 'naming' });
    await learner.createCard({ front: 'snakeXcase', back: 'not it' });
    const fronts = async (query: string) => (await learner.listCards({ query })).items.map((c) => c.front);
    expect(await fronts('50%')).toEqual(['50% off']);
    expect(await fronts('snake_')).toEqual(['snake_case']);
  });

  it('pages through search results newest first, each card once', async () => {
    const learner = newLearner('search-pages');
    for (let i = 0; i < 5; i++) await learner.createCard({ front: `Crème ${i}`, back: 'dessert' });
    await learner.createCard({ front: 'Bread', back: 'not a match' });
    const first = await learner.listCards({ query: 'creme', pageSize: 3 });
    expect(first.items.map((c) => c.front)).toEqual(['Crème 4', 'Crème 3', 'Crème 2']);
    const second = await learner.listCards({ query: 'creme', pageSize: 3, cursor: first.nextCursor });
    expect(second.items.map((c) => c.front)).toEqual(['Crème 1', 'Crème 0']);
    expect(second.nextCursor).toBe('');
  });

  it('never finds another learner’s cards', async () => {
    const owner = newLearner('owner');
    await owner.createCard({ front: 'Privé', back: 'secret' });
    expect((await newLearner('stranger').listCards({ query: 'prive' })).items).toEqual([]);
  });
});

/** The settings without the presets (presets.test.ts and optimizations.test.ts look at those). */
const settingsOnly = async (answer: Promise<{ presets: unknown }>) => {
  const { presets: _presets, ...settings } = await answer;
  return settings;
};

describe('settings', () => {
  it('gives a new learner the defaults', async () => {
    expect(await settingsOnly(newLearner('defaults').getSettings())).toEqual(DEFAULT_SETTINGS);
  });

  it('changes only the settings named in the update', async () => {
    const learner = newLearner('update');
    await learner.updateSettings({ fields: ['timezone'], settings: { timezone: 'Europe/Lisbon' } });
    const updated = await settingsOnly(
      learner.updateSettings({
        fields: ['desired_retention', 'day_start_hour'],
        settings: { desiredRetention: 0.85, dayStartHour: 6, timezone: 'ignored/because-not-named' },
      }),
    );
    expect(updated).toEqual({
      ...DEFAULT_SETTINGS,
      timezone: 'Europe/Lisbon',
      desiredRetention: 0.85,
      dayStartHour: 6,
    });
    expect(await settingsOnly(learner.getSettings())).toEqual(updated);
  });

  it('refuses an unknown timezone or an out-of-range retention with a clear message, changing nothing', async () => {
    const learner = newLearner('invalid');
    const cases: [Record<string, unknown>, string, string][] = [
      [{ timezone: 'Mars/Olympus_Mons' }, 'timezone', 'Timezone is not a known IANA timezone.'],
      [{ desiredRetention: 0.5 }, 'desired_retention', 'Desired retention must be between 0.70 and 0.99.'],
      [{ learningSteps: ['10 minutes'] }, 'learning_steps', 'A step is a number followed by m, h or d, like 10m.'],
    ];
    for (const [settings, field, message] of cases) {
      const error = await grpcFailure(learner.updateSettings({ fields: [field], settings }));
      expect(error.code).toBe(status.INVALID_ARGUMENT);
      expect(error.message).toBe(message);
    }
    expect(await settingsOnly(learner.getSettings())).toEqual(DEFAULT_SETTINGS);
  });

  it('keeps both of two partial updates made at the same time', async () => {
    const learner = newLearner('concurrent');
    await Promise.all([
      learner.updateSettings({ fields: ['daily_goal'], settings: { dailyGoal: 50 } }),
      learner.updateSettings({ fields: ['fuzz'], settings: { fuzz: false } }),
    ]);
    expect(await learner.getSettings()).toMatchObject({ dailyGoal: 50, fuzz: false });
  });
});
