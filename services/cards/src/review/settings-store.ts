// Reading and writing a learner's settings row with plain SQL (null when they never saved any).
import type { Settings } from '@engram/contracts/learning';
import type pg from 'pg';
import type { SettingsRow } from '../domain/settings.js';

const READ = `
SELECT timezone, day_start_hour, desired_retention, maximum_interval_days, learning_steps, relearning_steps,
  fuzz, daily_goal
FROM learner_settings WHERE owner_id = $1`;

const UPSERT = `
INSERT INTO learner_settings (owner_id, timezone, day_start_hour, desired_retention, maximum_interval_days,
  learning_steps, relearning_steps, fuzz, daily_goal, updated_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now())
ON CONFLICT (owner_id) DO UPDATE SET timezone = $2, day_start_hour = $3, desired_retention = $4,
  maximum_interval_days = $5, learning_steps = $6, relearning_steps = $7, fuzz = $8, daily_goal = $9,
  updated_at = now()`;

export async function readSettings(pool: pg.Pool | pg.PoolClient, ownerId: string): Promise<SettingsRow | null> {
  const { rows } = await pool.query<SettingsRow>(READ, [ownerId]);
  return rows[0] ?? null;
}

export async function writeSettings(pool: pg.Pool | pg.PoolClient, ownerId: string, s: Settings): Promise<void> {
  await pool.query(UPSERT, [
    ownerId,
    s.timezone,
    s.dayStartHour,
    s.desiredRetention,
    s.maximumIntervalDays,
    s.learningSteps,
    s.relearningSteps,
    s.fuzz,
    s.dailyGoal,
  ]);
}
