// identity's user events come from triggers on its users table, so they commit with the change whoever
// wrote it: better-auth's own endpoints or a plain SQL statement. The rows are the outbox's ordinary
// EventEnvelope, byte for byte what the generated TypeScript codecs encode, and the relay publishes them
// as soon as they commit.
import { type EventDefinition, UserCreated, UserDeleted, UserUpdated } from '@engram/contracts/events';
import { Actor_Kind, EventEnvelope } from '@engram/proto/events/v1/envelope';
import { waitUntil } from '@engram/testkit/wait';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IdentityHarness, PASSWORD, startIdentityHarness, uniqueEmail } from '../harness.js';

let identity: IdentityHarness;
let nats: NatsConnection;

beforeAll(async () => {
  // The relay's poll is a minute away: only the trigger's NOTIFY can make it publish within the test.
  identity = await startIdentityHarness({ relay: true, relayPollMs: 60_000 });
  nats = await connect({ servers: identity.events?.natsUrl.replace('nats://', '') });
});
afterAll(async () => {
  await nats?.close();
  await identity?.stop();
});

interface DecodedEvent {
  id: string;
  subject: string;
  publishedAt: Date | null;
  envelope: EventEnvelope;
  payload: { userId: string } & Record<string, unknown>;
}

const CATALOGUE = [UserCreated, UserUpdated, UserDeleted] as EventDefinition<{ userId: string }>[];

/** Every outbox row, decoded with the generated codecs; each must re-encode to exactly its bytes. */
async function outbox(): Promise<DecodedEvent[]> {
  const rows = await identity.db.outboxEvent.findMany({ orderBy: { seq: 'asc' } });
  return rows.map((row) => {
    const envelope = EventEnvelope.decode(row.payload);
    expect(Buffer.from(EventEnvelope.encode(envelope).finish())).toEqual(Buffer.from(row.payload));
    const event = CATALOGUE.find((entry) => entry.subject === row.type);
    if (!event) throw new Error(`not in the catalogue: ${row.type}`);
    const payload = event.message.decode(envelope.payload);
    expect(Buffer.from(event.message.encode(payload).finish())).toEqual(Buffer.from(envelope.payload));
    expect(row.headers).toEqual({});
    return { id: row.id, subject: row.type, publishedAt: row.publishedAt, envelope, payload };
  });
}

const eventsOf = async (userId: string) => (await outbox()).filter((event) => event.payload.userId === userId);
const userIdOf = async (email: string) => (await identity.db.user.findUniqueOrThrow({ where: { email } })).id;

describe('events of better-auth’s own writes', () => {
  it('writes UserCreated with the new account, as an envelope from the system "identity"', async () => {
    const email = uniqueEmail('created');
    const before = new Date();
    await identity.signUp({ email, password: PASSWORD, name: 'Cora Created', username: 'Cora_C' });
    const user = await identity.db.user.findUniqueOrThrow({ where: { email } });

    const [created, ...others] = await eventsOf(user.id);
    expect(others).toEqual([]);
    expect(created?.subject).toBe(UserCreated.subject);
    expect(created?.envelope).toEqual({
      id: created?.id,
      type: UserCreated.subject,
      occurredAt: expect.any(Date),
      actor: { kind: Actor_Kind.KIND_SYSTEM, id: 'identity' },
      payload: expect.any(Uint8Array),
    });
    expect(created?.envelope.occurredAt?.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1_000);
    // Ids and flags only: the address and the name stay in identity.
    expect(created?.payload).toEqual({
      userId: user.id,
      role: 'user',
      emailVerified: false,
      createdAt: user.createdAt,
    });
  });

  it('writes UserUpdated when the address is verified, not for a new name, onboarding or signing in', async () => {
    const email = uniqueEmail('updated');
    const cookie = await identity.signUpVerified({ email, password: PASSWORD, name: 'Una Updated' });
    const userId = await userIdOf(email);
    const renamed = await identity.post('/api/auth/update-user', { body: { name: 'Una Renamed' }, cookie });
    expect(renamed.status).toBe(200);
    await identity.post('/api/auth/sign-in/email', { body: { email, password: PASSWORD } });
    await identity.db.user.update({ where: { id: userId }, data: { onboardedAt: new Date() } });

    const events = await eventsOf(userId);
    expect(events.map((event) => event.subject)).toEqual([UserCreated.subject, UserUpdated.subject]);
    expect(events[1]?.payload).toEqual({ userId, role: 'user', emailVerified: true, banned: false });
  });

  it('writes UserDeleted when the user deletes their account', async () => {
    const email = uniqueEmail('deleted');
    const cookie = await identity.signUpVerified({ email, password: PASSWORD, name: 'Dee Deleted' });
    const userId = await userIdOf(email);
    const response = await identity.post('/api/auth/delete-user', { body: { password: PASSWORD }, cookie });
    expect(response.status).toBe(200);

    const events = await eventsOf(userId);
    expect(events.at(-1)?.subject).toBe(UserDeleted.subject);
    expect(events.at(-1)?.payload).toEqual({ userId });
  });
});

describe('a deleted account in identity', () => {
  it('leaves no code for the address and no published event naming the user, only the UserDeleted', async () => {
    const email = uniqueEmail('erased');
    const cookie = await identity.signUpVerified({ email, password: PASSWORD, name: 'Erin Erased' });
    const userId = await userIdOf(email);
    await identity.db.verification.create({
      data: { id: crypto.randomUUID(), identifier: `sign-in-otp-${email}`, value: '123456:0', expiresAt: new Date() },
    });
    await waitUntil(
      'the relay published the user’s events',
      async () => (await eventsOf(userId)).every((event) => event.publishedAt !== null),
      5_000,
    );

    const response = await identity.post('/api/auth/delete-user', { body: { password: PASSWORD }, cookie });
    expect(response.status).toBe(200);
    expect(await identity.db.verification.count({ where: { identifier: { contains: email } } })).toBe(0);
    expect((await eventsOf(userId)).map((event) => event.subject)).toEqual([UserDeleted.subject]);
  });
});

describe('events of plain SQL', () => {
  it('writes an event for each row a statement creates, changes or deletes', async () => {
    const id = crypto.randomUUID();
    const email = uniqueEmail('sql');
    await identity.db
      .$executeRaw`INSERT INTO users (id, name, email, updated_at) VALUES (${id}, 'Sequel', ${email}, now())`;
    await identity.db.$executeRaw`UPDATE users SET role = 'admin', banned = true WHERE id = ${id}`;
    await identity.db.$executeRaw`UPDATE users SET updated_at = now() WHERE id = ${id}`;

    const events = await eventsOf(id);
    expect(events.map((event) => event.subject)).toEqual([UserCreated.subject, UserUpdated.subject]);
    expect(events[0]?.payload).toEqual({ userId: id, role: 'user', emailVerified: false, createdAt: expect.any(Date) });
    expect(events[1]?.payload).toMatchObject({ role: 'admin', banned: true });

    // The deletion takes the published events that name the user with it (the relay may have sent them
    // by now), and announces itself.
    await identity.db.$executeRaw`DELETE FROM users WHERE id = ${id}`;
    expect((await eventsOf(id)).map((event) => event.subject).at(-1)).toBe(UserDeleted.subject);
  });

  it('writes nothing for a change that is rolled back', async () => {
    const id = crypto.randomUUID();
    const rollback = new Error('rolled back on purpose');
    await expect(
      identity.db.$transaction(async (tx) => {
        await tx.$executeRaw`INSERT INTO users (id, name, email, updated_at) VALUES (${id}, 'Ghost', ${uniqueEmail('ghost')}, now())`;
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    expect(await eventsOf(id)).toEqual([]);
  });
});

describe('publishing', () => {
  it('publishes a new account’s UserCreated at once, woken by the trigger', async () => {
    const email = uniqueEmail('published');
    await identity.signUp({ email, password: PASSWORD, name: 'Pablo Published' });
    const userId = await userIdOf(email);
    const created = (await eventsOf(userId))[0];

    await waitUntil(
      'the relay published UserCreated',
      async () => (await eventsOf(userId)).every((event) => event.publishedAt !== null),
      5_000,
    );
    const settings = identity.events?.settings;
    const jsm = await jetstreamManager(nats);
    const stored = await jsm.streams.getMessage(settings?.streamName ?? '', {
      last_by_subj: `${settings?.subjectPrefix}${UserCreated.subject}`,
    });
    expect(stored?.header?.get('Nats-Msg-Id')).toBe(created?.id);
    expect(UserCreated.message.decode(EventEnvelope.decode(stored?.data ?? new Uint8Array()).payload)).toMatchObject({
      userId,
    });
  });
});
