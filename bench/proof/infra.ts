// The proof's own PostgreSQL, NATS and Redis: private instances on free ports with their data in a
// temporary folder, so its faults (a restart, an outage) never touch the machine's shared servers.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EmbeddedPostgres, startEmbeddedPostgres } from '@engram/local/embedded-postgres';
import { freePort } from '@engram/local/ports';
import { ensureDatabase } from '@engram/local/postgres';
import { startPrivateNatsServer } from '@engram/testkit/nats-server';
import { startPrivateRedisServer } from '@engram/testkit/redis-server';

export interface ProofInfrastructure {
  databaseUrl: string;
  natsUrl: string;
  redisUrl: string;
  /** Stops PostgreSQL (fast shutdown: open transactions roll back) and starts it again on its data. */
  restartPostgres(): Promise<void>;
  restartNats(): Promise<void>;
  stopRedis(): Promise<void>;
  startRedis(): Promise<void>;
  dispose(): Promise<void>;
}

export async function startInfrastructure(): Promise<ProofInfrastructure> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-proof-'));
  const postgresPort = await freePort();
  let postgres: EmbeddedPostgres = await startEmbeddedPostgres(join(dir, 'postgres'), postgresPort);
  const nats = await startPrivateNatsServer();
  const redis = await startPrivateRedisServer();
  const databaseUrl = await ensureDatabase(postgres.url, 'engram');
  return {
    databaseUrl,
    natsUrl: nats.url,
    redisUrl: redis.url,
    async restartPostgres() {
      await postgres.stop();
      postgres = await startEmbeddedPostgres(join(dir, 'postgres'), postgresPort);
    },
    async restartNats() {
      await nats.stop();
      await nats.start();
    },
    stopRedis: () => redis.stop(),
    startRedis: () => redis.start(),
    async dispose() {
      await Promise.allSettled([postgres.stop(), nats.dispose(), redis.stop()]);
      rmSync(dir, { recursive: true, force: true });
      // embedded PostgreSQL as root keeps its data under /var/tmp when the postgres user cannot reach `dir`.
      if (postgres.dataDir !== join(dir, 'postgres')) rmSync(postgres.dataDir, { recursive: true, force: true });
    },
  };
}
