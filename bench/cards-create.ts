// Creating a card through the cards service's gRPC API (token verification, validation, the handler) against the
// same transaction run straight on the service's own stores in this process (createCardOnce, the handler's own
// code: the idempotency claim, the card, its review item, the CardCreated outbox row and the idempotency record).
// Like with like, as review-submit compares: the ratio is the price of the service layer per card. Every call
// creates a card: each has an idempotency key no call before it used, the warm-up's included.
import { closeStores, createStores } from '@engram/cards/db';
import { createCardOnce } from '@engram/cards/handlers/create-card';
import { cardsServices } from '@engram/cards/server';
import { createCardCommand } from '@engram/contracts/cards';
import { unary } from '@engram/kit/grpc/client';
import { CardsServiceClient, CreateCardRequest } from '@engram/proto/cards/v1/cards';
import { startServiceUnderTest } from '@engram/testkit/service';
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
    const stores = createStores(service.databaseUrl, { poolSize: CONCURRENCY });
    const token = await service.tokenFor('bench');
    /** A key no call has used: `phase` tells the runs apart, as i tells the calls of a run apart. */
    const key = (phase: string, i: number) => `bench-${phase}-${i}`;
    try {
      const card = (i: number) => ({ front: `front ${i}`, back: 'back' });
      const via = (phase: string) => (i: number) =>
        unary(
          client,
          client.createCard,
          CreateCardRequest.fromPartial({ ...card(i), idempotencyKey: key(`service-${phase}`, i) }),
          { token, timeoutMs: 10_000 },
        );
      const direct = (phase: string) => async (i: number) => {
        // The command as the handler reads it from the request.
        const command = createCardCommand.parse({ ...card(i), idempotencyKey: key(`direct-${phase}`, i) });
        const { repeated } = await createCardOnce(stores.db, 'bench', command);
        if (repeated) throw new Error('the baseline created no card: its key was used before');
      };
      await throughput(WARM_UP, CONCURRENCY, via('warm-up'));
      await throughput(WARM_UP, CONCURRENCY, direct('warm-up'));
      const service = await throughput(TOTAL, CONCURRENCY, via('measured'));
      const baseline = await throughput(TOTAL, CONCURRENCY, direct('measured'));
      const created = await stores.db.card.count({ where: { ownerId: 'bench' } });
      if (created !== 2 * (WARM_UP + TOTAL)) throw new Error(`expected every call to create a card, got ${created}`);
      console.log(`cards.create over gRPC:          ${service.toFixed(0)} cards/s`);
      console.log(`baseline, the same transaction:  ${baseline.toFixed(0)} cards/s`);
      console.log(`ratio service/baseline:          ${(service / baseline).toFixed(2)}`);
    } finally {
      await service.stop();
      await closeStores(stores);
    }
  });
}
