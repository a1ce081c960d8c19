// The organizations service's database: Prisma 7 on adapter-pg, in the service's own schema.
import { createPrismaClient } from '@engram/kit/db';
import type { Logger } from '@engram/kit/logger';
import { PrismaClient } from './generated/prisma/client.js';

export type Db = PrismaClient;
export type { Prisma } from './generated/prisma/client.js';

export function createDb(databaseUrl: string, logger?: Logger): Db {
  return createPrismaClient(PrismaClient, databaseUrl, {
    applicationName: 'organizations',
    ...(logger && { logger }),
  });
}
