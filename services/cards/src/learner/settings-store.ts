// Reading and writing a learner's settings with plain SQL: their learner_settings row and their default
// preset's desired retention and parameters (null columns where they never saved any).
import type { Settings } from '@engram/contracts/learning';
import type pg from 'pg';
import { insertDefaultPreset } from './default-preset.js';
import { defaultPresetJoin, SETTINGS_COLUMNS, type SettingsRow } from './settings.js';

const READ = `
SELECT ${SETTINGS_COLUMNS}
FROM (SELECT $1::text AS owner_id) o
LEFT JOIN learner_settings s ON s.owner_id = o.owner_id
${defaultPresetJoin('o.owner_id')}`;

// The default preset is made with the learner's first saved settings.
const UPSERT = `
WITH preset AS (${insertDefaultPreset({ owner: '$1', retention: '$4' }, 'DO UPDATE SET desired_retention = $4')})
INSERT INTO learner_settings (owner_id, timezone, day_start_hour, maximum_interval_days,
  learning_steps, relearning_steps, fuzz, daily_goal, easy_days, load_balance, updated_at)
VALUES ($1, $2, $3, $5, $6, $7, $8, $9, $10, $11, now())
ON CONFLICT (owner_id) DO UPDATE SET timezone = $2, day_start_hour = $3,
  maximum_interval_days = $5, learning_steps = $6, relearning_steps = $7, fuzz = $8, daily_goal = $9,
  easy_days = $10, load_balance = $11, updated_at = now()`;

export async function readSettings(pool: pg.Pool | pg.PoolClient, ownerId: string): Promise<SettingsRow> {
  const { rows } = await pool.query<SettingsRow>(READ, [ownerId]);
  return rows[0] as SettingsRow;
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
    s.easyDays,
    s.loadBalance,
  ]);
}
