// Creating a card through the cards service's gRPC API (token verification, validation, Prisma
// transaction with the outbox row) against the floor it cannot beat: the same two inserts as one raw
// SQL transaction on a pg pool. The ratio is the price of the service layer per card.
import { randomBytes, randomUUID } from 'node:crypto';
import { closeStores, createStores } from '@engram/cards/db';
import { cardsServices } from '@engram/cards/server';
import { CardCreated } from '@engram/contracts/events';
import { createPool } from '@engram/kit/db';
import { unary } from '@engram/kit/grpc/client';
import { CardsServiceClient, CreateCardRequest } from '@engram/proto/cards/v1/cards';
import { startServiceUnderTest } from '@engram/testkit/service';
import pg from 'pg';
import { withDatabase } from './bench-database.ts';
import { throughput } from './measure.ts';

const TOTAL = 2_000;
const CONCURRENCY = 16;
const WARM_UP = 200;

export async function cardCreation(adminUrl: string): Promise<void> {
  await withDatabase(adminUrl, async (databaseUrl) => {
    const service = await startServiceUnderTest({
      service: 'cards',
      databaseUrl,
      migrationsDir: new URL('../services/cards/prisma/migrations', import.meta.url).pathname,
      start({ databaseUrl: schemaUrl, serverOptions }) {
        const stores = createStores(schemaUrl, { poolSize: CONCURRENCY });
        return { services: cardsServices(stores, serverOptions), resources: stores, close: () => closeStores(stores) };
      },
    });
    const client = service.client(CardsServiceClient);
    const pool = createPool(service.databaseUrl, { max: CONCURRENCY });
    const token = await service.tokenFor('bench');
    try {
      const viaService = (i: number) =>
        unary(
          client,
          client.createCard,
          CreateCardRequest.fromPartial({ front: `front ${i}`, back: 'back', idempotencyKey: `bench-${i}` }),
          {
            token,
            timeoutMs: 10_000,
          },
        );
      const rawSql = async (i: number) => {
        const connection = await pool.connect();
        try {
          await connection.query('begin');
          const id = randomUUID();
          await connection.query(
            'insert into cards (id, owner_id, front, back, updated_at) values ($1, $2, $3, $4, now())',
            [id, 'bench', `front ${i}`, 'back'],
          );
          await connection.query(`insert into outbox_events (id, type, payload, headers) values ($1, $2, $3, '{}')`, [
            randomUUID(),
            CardCreated.subject,
            Buffer.from(id),
          ]);
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
      await service.stop();
      await pool.end();
    }
  });
}
