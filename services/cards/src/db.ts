// The cards service's database access: Prisma 7 (on adapter-pg, in the service's own schema) for the
// ordinary reads and writes, and a plain pg pool for the hot paths (reviews, due lists, metrics) where
// hand-written SQL is measured to matter (ARCHITECTURE.md, Data).
import { createPool, createPrismaClient } from '@engram/kit/db';
import type pg from 'pg';
import { PrismaClient } from './generated/prisma/client.js';

export type Db = PrismaClient;

export interface Stores {
  db: Db;
  pool: pg.Pool;
}

export function createDb(databaseUrl: string): Db {
  return createPrismaClient(PrismaClient, databaseUrl);
}

export function createStores(databaseUrl: string, poolSize = 10): Stores {
  return { db: createDb(databaseUrl), pool: createPool(databaseUrl, { applicationName: 'cards', max: poolSize }) };
}

export async function closeStores(stores: Stores): Promise<void> {
  await Promise.all([stores.db.$disconnect(), stores.pool.end()]);
}
