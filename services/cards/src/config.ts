// The cards service's configuration: the only place it reads process.env.
import { loadConfig, vars } from '@engram/kit/config';
import { eventVars } from '@engram/kit/events/setup';
import { serviceVars } from '@engram/kit/service';
import { storageSettingsOf, storageVars } from '@engram/kit/storage';

export const configShape = {
  ...serviceVars({ grpc: 50053, metrics: 9463 }),
  DATABASE_URL: vars.url(['postgresql', 'postgres']),
  /** How long a create call's idempotency key is remembered (a retry after that creates the cards again). */
  IDEMPOTENCY_RETENTION_HOURS: vars.positiveInt(24),
  ...eventVars,
  /** billing, asked for a learner's storage quota when they add a card file. */
  BILLING_ADDR: vars.address,
  /** How often expired uploads and the objects of deleted files are removed from the store. */
  MEDIA_SWEEP_INTERVAL_SECONDS: vars.positiveInt(60),
  /** After this many new reviews of a learner, their default preset is optimized again (in the background). */
  OPTIMIZE_EVERY_REVIEWS: vars.positiveInt(1000),
  /** Below this many reviews to learn from, an optimization keeps the parameters in use. */
  OPTIMIZE_MINIMUM_REVIEWS: vars.positiveInt(400),
  /** What the process of one import, export or optimization may use (docs/architecture.md#bulkheads). */
  JOB_MEMORY_MB: vars.positiveInt(1024),
  IMPORT_TIMEOUT_MINUTES: vars.positiveInt(30),
  EXPORT_TIMEOUT_MINUTES: vars.positiveInt(30),
  OPTIMIZATION_TIMEOUT_MINUTES: vars.positiveInt(15),
  /** Jobs of each kind one replica runs at once (each in its own process; one learner's, one at a time). */
  JOB_CONCURRENCY: vars.positiveInt(2),
  ...storageVars,
};

export type Config = ReturnType<typeof readConfig>;

export function readConfig(env: Record<string, string | undefined> = process.env) {
  const config = loadConfig('cards', configShape, env);
  // S3 (MEDIA_S3_BUCKET), or the local S3 stand-in outside production (docs/architecture.md#media-storage).
  return { ...config, storage: storageSettingsOf('cards', config) };
}
