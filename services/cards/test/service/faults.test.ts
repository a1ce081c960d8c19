// The cards service survives the faults of its surroundings, running as main.ts runs it (gRPC, outbox
// relay, UserDeleted consumer): NATS absent at start-up, every PostgreSQL backend it holds terminated,
// its JetStream stream deleted while it runs. And a deleted account's data goes, nobody else's.
// Runs against a private nats-server and a database of its own, so stopping one or terminating the
// other's backends touches no other test.
import { randomBytes, randomUUID } from 'node:crypto';
import { CardCreated, UserDeleted } from '@engram/contracts/events';
import { eventSubject } from '@engram/kit/events/stream';
import { Actor_Kind, EventEnvelope } from '@engram/proto/events/v1/envelope';
import { testContext } from '@engram/testkit/context';
import { createDatabase, dropDatabase } from '@engram/testkit/databases';
import { grpcFailure } from '@engram/testkit/grpc';
import { type PrivateNatsServer, startPrivateNatsServer } from '@engram/testkit/nats-server';
import { lastMessage } from '@engram/testkit/streams';
import { waitUntil } from '@engram/testkit/wait';
import { status } from '@grpc/grpc-js';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CardsHarness, startCardsHarness } from '../harness.js';

const databaseName = `${new URL(testContext().databaseUrl).pathname.slice(1)}_faults_${randomBytes(3).toString('hex')}`;

let server: PrivateNatsServer;
let cards: CardsHarness;
let admin: pg.Client;

function events() {
  const running = cards.events;
  if (!running) throw new Error('the harness runs no events');
  return running;
}

/** The card id of the newest CardCreated in the stream, if any. */
async function lastPublishedCardId(): Promise<string | undefined> {
  const { natsUrl, settings } = events();
  const message = await lastMessage(
    natsUrl,
    settings.streamName,
    eventSubject(settings.subjectPrefix, CardCreated.subject),
  ).catch(() => undefined);
  return message && CardCreated.message.decode(EventEnvelope.decode(message.data).payload).cardId;
}

async function unpublished(): Promise<number> {
  const { rows } = await cards.pool.query('SELECT count(*)::int AS n FROM outbox_events WHERE published_at IS NULL');
  return rows[0].n;
}

async function withNats<T>(work: (nc: NatsConnection) => Promise<T>): Promise<T> {
  const nc = await connect({ servers: server.url.replace('nats://', ''), timeout: 5_000 });
  try {
    return await work(nc);
  } finally {
    await nc.close();
  }
}

beforeAll(async () => {
  server = await startPrivateNatsServer();
  await server.stop();
  const databaseUrl = await createDatabase(testContext().databaseUrl, databaseName);
  admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  cards = await startCardsHarness({ databaseUrl, events: { natsUrl: server.url } });
}, 60_000);

afterAll(async () => {
  await server?.start().catch(() => undefined);
  await cards?.stop();
  await admin?.end();
  await dropDatabase(testContext().databaseUrl, databaseName);
  await server?.dispose();
}, 60_000);

describe('the cards service', () => {
  it('takes writes while NATS is absent at start-up and publishes them once NATS is reachable', async () => {
    const card = await cards.create('nats-absent', 'Written before NATS ever answered');

    expect(await unpublished()).toBe(1);

    await server.start();
    await waitUntil('the card is published', async () => (await lastPublishedCardId()) === card.id, 30_000);
    // The relay marks the row published once NATS has acknowledged it, a moment after it is in the stream.
    await waitUntil('the outbox row is marked published', async () => (await unpublished()) === 0);
  });

  it('keeps serving and publishing after every PostgreSQL backend it holds is terminated', async () => {
    await cards.create('terminated', 'Before the backends go');
    await waitUntil('the outbox is published', async () => (await unpublished()) === 0);
    const { rows } = await admin.query<{ pid: number }>(
      `SELECT pg_terminate_backend(pid) AS terminated, pid FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    );
    // The Prisma client, the hot-path pool and the events pool (relay, LISTEN) all had connections.
    expect(rows.length).toBeGreaterThanOrEqual(3);
    await waitUntil('the backends are gone', async () => {
      const left = await admin.query('SELECT 1 FROM pg_stat_activity WHERE pid = ANY($1::int[])', [
        rows.map((row) => row.pid),
      ]);
      return left.rowCount === 0;
    });

    const card = await cards.create('terminated', 'After the backends went');
    const listed = await cards.list('terminated');
    expect(listed.items.map((c) => c.id)).toContain(card.id);
    await waitUntil('the new card is published', async () => (await lastPublishedCardId()) === card.id, 30_000);
  });

  it('answers UNAVAILABLE (try again) while its database refuses connections, and serves once it takes them', async () => {
    await cards.create('refused', 'Before the database went away');
    // ALTER DATABASE cannot close the database it is sent from: the maintenance database sends it.
    const maintenance = new pg.Client({ connectionString: testContext().databaseUrl });
    await maintenance.connect();
    const { rows } = await admin.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    await maintenance.query(`ALTER DATABASE "${databaseName}" ALLOW_CONNECTIONS false`);
    try {
      await maintenance.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> $2',
        [databaseName, rows[0]?.pid],
      );
      const failure = await grpcFailure(cards.list('refused'));
      expect(failure.code).toBe(status.UNAVAILABLE);
      expect(failure.message).toBe('the database is unavailable');
    } finally {
      await maintenance.query(`ALTER DATABASE "${databaseName}" ALLOW_CONNECTIONS true`);
      await maintenance.end();
    }
    const card = await cards.create('refused', 'After it came back');
    expect((await cards.list('refused')).items.map((c) => c.id)).toContain(card.id);
  });

  it('creates its stream again when it is deleted while running, and publishing resumes', async () => {
    const { settings } = events();
    await withNats(async (nc) => (await jetstreamManager(nc)).streams.delete(settings.streamName));

    const card = await cards.create('stream-deleted', 'After the stream was deleted');

    await waitUntil('the card is published again', async () => (await lastPublishedCardId()) === card.id, 30_000);
    await waitUntil('the outbox row is marked published', async () => (await unpublished()) === 0);
  });

  it("erases a deleted user's cards, note types, tags, review items, review logs, settings, presets and create keys, and nobody else's", async () => {
    const gone = `gone-${randomUUID().slice(0, 8)}`;
    const kept = `kept-${randomUUID().slice(0, 8)}`;
    for (const user of [gone, kept]) {
      const learner = cards.as(user);
      const { tag } = await learner.createTag({ name: 'biology' });
      await learner.createCard({ front: `Q of ${user}`, back: 'A', tagIds: [tag!.id] });
      const words = await learner.createNoteType({
        name: 'Words',
        fields: ['Word', 'Meaning'],
        templates: [{ name: 'Recognise', front: '{{Word}}', back: '{{Meaning}}' }],
      });
      await learner.createCard({ noteTypeId: words.id, fieldValues: [`word of ${user}`, 'meaning'] });
      const { items } = await learner.listDue();
      await learner.review({ id: items[0]!.id, rating: 'good', reviewId: randomUUID(), durationMs: 1_000 });
      await learner.updateSettings({ fields: ['timezone'], settings: { timezone: 'Europe/Lisbon' } });
    }
    const rowsOf = async (user: string) => {
      const { rows } = await cards.pool.query(
        `SELECT (SELECT count(*) FROM cards WHERE owner_id = $1)::int AS cards,
                (SELECT count(*) FROM tags WHERE owner_id = $1)::int AS tags,
                (SELECT count(*) FROM card_tags ct JOIN tags t ON t.id = ct.tag_id WHERE t.owner_id = $1)::int AS card_tags,
                (SELECT count(*) FROM review_items WHERE owner_id = $1)::int AS review_items,
                (SELECT count(*) FROM review_logs WHERE owner_id = $1)::int AS review_logs,
                (SELECT count(*) FROM learner_settings WHERE owner_id = $1)::int AS settings,
                (SELECT count(*) FROM presets WHERE owner_id = $1)::int AS presets,
                (SELECT count(*) FROM create_requests WHERE owner_id = $1)::int AS create_requests,
                (SELECT count(*) FROM note_types WHERE owner_id = $1)::int AS note_types`,
        [user],
      );
      return rows[0];
    };
    const everything = {
      cards: 2,
      tags: 1,
      card_tags: 1,
      review_items: 2,
      review_logs: 1,
      settings: 1,
      presets: 1,
      create_requests: 2,
      note_types: 1,
    };
    expect(await rowsOf(gone)).toEqual(everything);

    // As identity's relay would publish it.
    const { settings } = events();
    const envelope = EventEnvelope.encode({
      id: randomUUID(),
      type: UserDeleted.subject,
      occurredAt: new Date(),
      actor: { kind: Actor_Kind.KIND_SYSTEM, id: 'identity' },
      payload: Buffer.from(UserDeleted.message.encode({ userId: gone }).finish()),
    }).finish();
    await withNats((nc) => jetstream(nc).publish(eventSubject(settings.subjectPrefix, UserDeleted.subject), envelope));

    await waitUntil('the user is erased', async () => (await rowsOf(gone)).cards === 0, 30_000);
    expect(await rowsOf(gone)).toEqual({
      cards: 0,
      tags: 0,
      card_tags: 0,
      review_items: 0,
      review_logs: 0,
      settings: 0,
      presets: 0,
      create_requests: 0,
      note_types: 0,
    });
    expect(await rowsOf(kept)).toEqual(everything);
    // Applied once (the reviews' own events went to the auto-optimize consumer).
    const { rows } = await cards.pool.query(
      "SELECT consumer FROM processed_events WHERE consumer <> 'cards-auto-optimize'",
    );
    expect(rows).toEqual([{ consumer: 'cards-erase-user' }]);
  });
});
