// The cards service's database client (Prisma 7 on adapter-pg, in the service's own schema).
import { createPrismaClient } from '@engram/kit/db';
import { PrismaClient } from './generated/prisma/client.js';

export type Db = PrismaClient;

export function createDb(databaseUrl: string): Db {
  return createPrismaClient(PrismaClient, databaseUrl);
}
