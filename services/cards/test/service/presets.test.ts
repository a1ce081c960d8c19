// A learner's default preset: it holds their desired retention and the FSRS-6 parameters their cards are
// scheduled with (FSRS-6's defaults until their own are adopted), and learners who saved settings before
// presets existed find their desired retention in it.
import { randomBytes, randomUUID } from 'node:crypto';
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SETTINGS } from '@engram/contracts/learning';
import { createPool } from '@engram/kit/db';
import { applyMigrations } from '@engram/kit/migrate';
import { testContext } from '@engram/testkit/context';
import { schemaUrl } from '@engram/testkit/databases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORGETFUL_PARAMETERS } from '../../src/optimizer/synthetic-learner.ts';
import { CARDS_MIGRATIONS, type CardsHarness, startCardsHarness } from '../harness.js';

const DAY_S = 86_400;

let cards: CardsHarness;
beforeAll(async () => {
  cards = await startCardsHarness();
});
afterAll(() => cards?.stop());

const presetsOf = async (ownerId: string) =>
  (
    await cards.pool.query<{ name: string; is_default: boolean; desired_retention: number; parameters: number[] }>(
      'SELECT name, is_default, desired_retention, parameters FROM presets WHERE owner_id = $1',
      [ownerId],
    )
  ).rows;

/** What an adopted optimization leaves: the learner's own parameters in their default preset. */
const adopt = (ownerId: string, parameters: readonly number[]) =>
  cards.pool.query('UPDATE presets SET parameters = $2, optimized_at = now() WHERE owner_id = $1 AND is_default', [
    ownerId,
    parameters,
  ]);

describe('the default preset', () => {
  it('is made with the first saved settings, holds the desired retention, and keeps its parameters', async () => {
    const user = `preset-${randomUUID().slice(0, 8)}`;
    const learner = cards.as(user);
    expect(await presetsOf(user)).toEqual([]);
    await learner.updateSettings({ fields: ['desired_retention'], settings: { desiredRetention: 0.85 } });
    expect(await presetsOf(user)).toEqual([
      { name: 'Default', is_default: true, desired_retention: 0.85, parameters: [] },
    ]);
    await adopt(user, FORGETFUL_PARAMETERS);
    await learner.updateSettings({ fields: ['desired_retention'], settings: { desiredRetention: 0.92 } });
    const { presets, ...settings } = await learner.getSettings();
    expect(settings).toEqual({ ...DEFAULT_SETTINGS, desiredRetention: 0.92 });
    expect(presets).toEqual([
      expect.objectContaining({ isDefault: true, desiredRetention: 0.92, parameters: FORGETFUL_PARAMETERS }),
    ]);
    const [preset] = await presetsOf(user);
    expect(preset?.desired_retention).toBe(0.92);
    expect(preset?.parameters).toEqual(FORGETFUL_PARAMETERS);
  });

  it('schedules the learner’s cards with their own parameters once adopted', async () => {
    const user = `own-${randomUUID().slice(0, 8)}`;
    const learner = cards.as(user);
    await learner.updateSettings({ fields: ['fuzz'], settings: { fuzz: false } });
    await learner.createCard({ front: 'Q', back: 'A' });
    const [item] = (await learner.listDue()).items;
    // FSRS-6's defaults: a new card answered "easy" comes back in 8 days.
    expect(Math.round((item?.nextIntervals?.easy ?? 0) / DAY_S)).toBe(8);

    // This learner forgets faster: their first stability after "easy" is about 2.9 days.
    await adopt(user, FORGETFUL_PARAMETERS);
    const [again] = (await learner.listDue()).items;
    expect(Math.round((again?.nextIntervals?.easy ?? 0) / DAY_S)).toBe(3);
    const before = Date.now();
    const { item: reviewed } = await learner.review({
      id: item?.id,
      rating: 'easy',
      reviewId: randomUUID(),
      durationMs: 1000,
    });
    expect(Math.round(((reviewed?.due?.getTime() ?? 0) - before) / 1000 / DAY_S)).toBe(3);
  });
});

describe('the migration that makes presets', () => {
  const MIGRATION = '_presets';
  const databaseUrl = schemaUrl(testContext().databaseUrl, `cards_presets_${randomBytes(4).toString('hex')}`);
  const pool = createPool(databaseUrl, { max: 1 });
  afterAll(() => pool.end());

  it('gives each learner who saved settings a default preset with the desired retention they chose', async () => {
    const before = await mkdtemp(join(tmpdir(), 'cards-migrations-'));
    try {
      const names = (await readdir(CARDS_MIGRATIONS)).sort();
      const cut = names.findIndex((name) => name.endsWith(MIGRATION));
      expect(cut).toBeGreaterThan(0);
      for (const name of names.slice(0, cut))
        await cp(join(CARDS_MIGRATIONS, name), join(before, name), { recursive: true });
      await applyMigrations({ databaseUrl, migrationsDir: before });
      await pool.query(
        `INSERT INTO learner_settings (owner_id, timezone, day_start_hour, desired_retention, maximum_interval_days,
           learning_steps, relearning_steps, fuzz, daily_goal, updated_at)
         VALUES ('careful', 'Europe/Lisbon', 4, 0.95, 36500, '{1m}', '{10m}', true, 20, now())`,
      );
      await applyMigrations({ databaseUrl, migrationsDir: CARDS_MIGRATIONS });
      const { rows } = await pool.query(
        'SELECT owner_id, name, is_default, desired_retention, parameters, new_per_day, reviews_per_day FROM presets',
      );
      expect(rows).toEqual([
        {
          owner_id: 'careful',
          name: 'Default',
          is_default: true,
          desired_retention: 0.95,
          parameters: [],
          new_per_day: 20,
          reviews_per_day: 200,
        },
      ]);
    } finally {
      await rm(before, { recursive: true, force: true });
      await pool.query(`DROP SCHEMA IF EXISTS "${new URL(databaseUrl).searchParams.get('schema')}" CASCADE`);
    }
  });
});
