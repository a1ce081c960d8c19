// The cards service's database access: Prisma 7 (on adapter-pg, in the service's own schema) for the
// ordinary reads and writes, and a plain pg pool for the hot paths (reviews, due lists, metrics) where
// hand-written SQL is measured to matter (docs/architecture.md#data).
import { createPool, createPrismaClient } from '@engram/kit/db';
import type { Logger } from '@engram/kit/logger';
import type pg from 'pg';
import { PrismaClient } from './generated/prisma/client.js';

export type Db = PrismaClient;

export interface Stores {
  db: Db;
  pool: pg.Pool;
}

export function createDb(databaseUrl: string, logger?: Logger): Db {
  return createPrismaClient(PrismaClient, databaseUrl, { applicationName: 'cards-prisma', ...(logger && { logger }) });
}

export function createStores(databaseUrl: string, options: { poolSize?: number; logger?: Logger } = {}): Stores {
  const { poolSize = 10, logger } = options;
  return {
    db: createDb(databaseUrl, logger),
    pool: createPool(databaseUrl, { applicationName: 'cards', max: poolSize, ...(logger && { logger }) }),
  };
}

export async function closeStores(stores: Stores): Promise<void> {
  await Promise.all([stores.db.$disconnect(), stores.pool.end()]);
}
