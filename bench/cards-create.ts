// Creating a card through the cards service's gRPC API (token verification, validation, Prisma
// transaction with the outbox row) against the floor it cannot beat: the same two inserts as one raw
// SQL transaction on a pg pool. The ratio is the price of the service layer per card.
import { randomBytes, randomUUID } from 'node:crypto';
import { closeStores, createStores } from '@engram/cards/db';
import { cardsServices } from '@engram/cards/server';
import { createPool } from '@engram/kit/db';
import { createClient, unary } from '@engram/kit/grpc/client';
import { startGrpcServer } from '@engram/kit/grpc/server';
import {
  createInternalTokenSigner,
  createInternalTokenVerifier,
  generateInternalKeys,
} from '@engram/kit/internal-auth';
import { createLogger } from '@engram/kit/logger';
import { applyMigrations } from '@engram/kit/migrate';
import { CardsServiceClient, CreateCardRequest } from '@engram/proto/cards/v1/cards';
import pg from 'pg';
import { throughput } from './measure.ts';

const TOTAL = 2_000;
const CONCURRENCY = 16;
const WARM_UP = 200;

async function withDatabase<T>(adminUrl: string, work: (url: string) => Promise<T>): Promise<T> {
  const name = `engram_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  url.searchParams.set('schema', 'cards');
  try {
    return await work(url.toString());
  } finally {
    await admin.query(`drop database "${name}" with (force)`);
    await admin.end();
  }
}

export async function cardCreation(adminUrl: string): Promise<void> {
  await withDatabase(adminUrl, async (databaseUrl) => {
    const migrationsDir = new URL('../services/cards/prisma/migrations', import.meta.url).pathname;
    await applyMigrations({ databaseUrl, migrationsDir });
    const keys = await generateInternalKeys();
    const signer = await createInternalTokenSigner(keys.privateJwk);
    const logger = createLogger({ service: 'cards', level: 'silent' });
    const stores = createStores(databaseUrl, CONCURRENCY);
    const verifier = createInternalTokenVerifier(keys.publicJwks, 'cards');
    const server = await startGrpcServer({
      port: 0,
      host: '127.0.0.1',
      services: cardsServices(stores, { service: 'cards', logger, verifier }),
      logger,
    });
    const client = createClient(CardsServiceClient, `127.0.0.1:${server.port}`);
    const pool = createPool(databaseUrl, { max: CONCURRENCY });
    const token = await signer.sign(
      { userId: 'bench', sessionId: 's', role: 'user', activeOrganizationId: null },
      'cards',
    );
    try {
      const viaService = (i: number) =>
        unary(client, client.createCard, CreateCardRequest.fromPartial({ front: `front ${i}`, back: 'back' }), {
          token,
          timeoutMs: 10_000,
        });
      const rawSql = async (i: number) => {
        const connection = await pool.connect();
        try {
          await connection.query('begin');
          const id = randomUUID();
          await connection.query(
            'insert into cards (id, owner_id, front, back, updated_at) values ($1, $2, $3, $4, now())',
            [id, 'bench', `front ${i}`, 'back'],
          );
          await connection.query(
            `insert into outbox_events (id, type, payload, headers) values ($1, 'engram.cards.card.created', $2, '{}')`,
            [randomUUID(), Buffer.from(id)],
          );
          await connection.query('commit');
        } finally {
          connection.release();
        }
      };
      await throughput(WARM_UP, CONCURRENCY, viaService);
      await throughput(WARM_UP, CONCURRENCY, rawSql);
      const service = await throughput(TOTAL, CONCURRENCY, viaService);
      const baseline = await throughput(TOTAL, CONCURRENCY, rawSql);
      console.log(`cards.create over gRPC:          ${service.toFixed(0)} cards/s`);
      console.log(`baseline, raw SQL transaction:   ${baseline.toFixed(0)} cards/s`);
      console.log(`ratio service/baseline:          ${(service / baseline).toFixed(2)}`);
    } finally {
      client.close();
      await server.shutdown();
      await Promise.all([closeStores(stores), pool.end()]);
    }
  });
}
