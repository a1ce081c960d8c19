// Deleting an account erases the person everywhere, the hard way: a learner active in every service
// (cards, reviews, settings and a picture in a card; an organization with a deck they published, another member's deck they
// study, an assignment, an invitation to their address; a paid plan through the Stripe stand-in; a
// generation) deletes their account
// through the real gateway and processes; events about them that travelled behind the deletion are
// delivered afterwards; then every text and JSON column of every schema is searched for their id and
// address. The other member keeps their own data, and the deck the leaver published is gone from them.
import { randomUUID } from 'node:crypto';
import {
  DeckSubscribed,
  DeckUnsubscribed,
  MemberAdded,
  ReviewRecorded,
  SubscriptionChanged,
} from '@engram/contracts/events';
import type { AppRouter } from '@engram/gateway/router';
import { linkIn, nextMail } from '@engram/testkit/mailbox';
import { sharedTestStack } from '@engram/testkit/shared-stack';
import { TEST_PASSWORD, type TestStack } from '@engram/testkit/stack';
import { publishEvent } from '@engram/testkit/streams';
import { BACKGROUND_JOB_WAIT_MS, waitUntil } from '@engram/testkit/wait';
import { createTRPCClient, httpBatchStreamLink } from '@trpc/client';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authAction, type Person, signedUpPerson } from '../support/people.ts';
import type { Json } from '../support/trpc-client.ts';

let stack: TestStack;
let db: pg.Pool;

beforeAll(async () => {
  stack = await sharedTestStack();
  db = new pg.Pool({ connectionString: stack.databaseUrl, max: 2 });
});
afterAll(() => db?.end());

const person = (label: string) => signedUpPerson(stack.url, label);
/** Words only this file writes: another file on the same stack or database may write the same card. */
const POWERHOUSE = `What is the powerhouse of the cell (${randomUUID().slice(0, 8)})?`;
const auth = (who: Person, path: string, body: unknown) => authAction(stack.url, who, path, body);

async function join(inviter: Person, organizationId: string, who: Person, role: string) {
  await auth(inviter, 'organization/invite-member', { email: who.email, role, organizationId });
  const mail = await nextMail(stack.url, who.email, /invited you to/);
  const invitationId = new URL(linkIn(mail)).searchParams.get('invitationId');
  await auth(who, 'organization/accept-invitation', { invitationId });
}

/** A tag of the learner's with these cards. */
async function cardsUnderTag(who: Person, tagName: string, cards: [string, string][]) {
  const tag = await who.api.mutate('cards.createTag', { name: tagName });
  for (const [front, back] of cards) await who.api.mutate('cards.create', { front, back, tagIds: [tag.id] });
  return tag;
}

/** Reviews a due card of the learner's own, or with `deckId`, one of their copies of that deck. */
async function reviewFirstDue(who: Person, deckId: string | null = null) {
  const cards = new Set((await cardsOf(who)).filter((card) => card.deckId === deckId).map((card) => card.id));
  const due = (await who.api.query('cards.listDue', {})).items as Json[];
  const item = due.find((candidate) => cards.has(candidate.cardId));
  await who.api.mutate('cards.review', { id: item.id, rating: 'good', reviewId: randomUUID(), durationMs: 2000 });
  return item;
}

async function cardsOf(who: Person): Promise<Json[]> {
  const active = await who.api.query('cards.list', { pageSize: 100, archived: false });
  const archived = await who.api.query('cards.list', { pageSize: 100, archived: true });
  return [...active.items, ...archived.items];
}

async function count(sql: string, values: unknown[] = []): Promise<number> {
  return Number((await db.query(sql, values)).rows[0].count);
}

/** Whether `consumer` (in its service's schema) has applied the event. */
const applied = async (schema: string, consumer: string, eventId: string) =>
  (await count(`SELECT count(*) FROM "${schema}".processed_events WHERE consumer = $1 AND event_id = $2`, [
    consumer,
    eventId,
  ])) === 1;

/** Every row of every schema with a text, JSON or uuid column that contains one of `needles`. */
async function rowsMentioning(needles: string[]): Promise<string[]> {
  const columns = await db.query<{ schema: string; table: string; column: string }>(
    `SELECT c.table_schema AS schema, c.table_name AS table, c.column_name AS column
       FROM information_schema.columns c
       JOIN information_schema.tables t USING (table_schema, table_name)
      WHERE t.table_type = 'BASE TABLE'
        AND c.table_schema NOT IN ('pg_catalog', 'information_schema')
        AND c.data_type IN ('text', 'character varying', 'character', 'json', 'jsonb', 'uuid', 'ARRAY')`,
  );
  const found: string[] = [];
  for (const { schema, table, column } of columns.rows) {
    for (const needle of needles) {
      const rows = await count(
        `SELECT count(*) FROM "${schema}"."${table}" WHERE strpos(lower("${column}"::text), lower($1)) > 0`,
        [needle],
      );
      if (rows > 0) found.push(`${schema}.${table}.${column}: ${rows} row(s) with ${needle}`);
    }
  }
  return found;
}

describe('deleting an account', () => {
  it('leaves no row with the person’s id or address in any service, even after late events about them', async () => {
    const leaver = await person('leaver');
    const keeper = await person('keeper');

    // Cards, a review and settings of their own.
    const leaverTag = await cardsUnderTag(leaver, 'leaver cells', [
      [POWERHOUSE, 'The mitochondrion'],
      ['What holds the genome?', 'The nucleus'],
      ['What makes proteins?', 'The ribosome'],
    ]);
    await reviewFirstDue(leaver);
    await leaver.api.mutate('settings.update', { timezone: 'America/Sao_Paulo', dayStartHour: 5 });
    // A picture in a card of theirs (a GIF's smallest form: the file's bytes are what a card may hold).
    const gif = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');
    const slot: Json = await leaver.api.mutate('media.createUpload', {
      name: 'dot.gif',
      size: gif.length,
      contentType: 'image/gif',
      purpose: 'card',
    });
    expect((await fetch(slot.url, { method: 'PUT', headers: slot.headers, body: gif })).status).toBe(200);
    const picture: Json = await leaver.api.mutate('media.finishUpload', { uploadId: slot.uploadId });
    await leaver.api.mutate('cards.create', { front: `What is this? ![dot](${picture.path})`, back: 'A dot' });
    // A CSV file they imported, and an export of their cards waiting to be downloaded.
    const csv = Buffer.from('front,back\nWhat is a cell?,The unit of life\n');
    const csvSlot: Json = await leaver.api.mutate('media.createUpload', {
      name: 'cells.csv',
      size: csv.length,
      contentType: 'text/csv',
      purpose: 'import',
    });
    expect((await fetch(csvSlot.url, { method: 'PUT', headers: csvSlot.headers, body: csv })).status).toBe(200);
    const { importId } = await leaver.api.mutate('imports.start', { uploadId: csvSlot.uploadId });
    const { exportId } = await leaver.api.mutate('exports.start', { format: 'apkg' });
    await waitUntil(
      'the import and the export are done',
      async () => {
        const imported: Json = await leaver.api.query('imports.get', { importId });
        const exported: Json = await leaver.api.query('exports.get', { exportId });
        return imported.status === 'done' && exported.status === 'done';
      },
      BACKGROUND_JOB_WAIT_MS,
    );

    // An organization of theirs, with a deck they publish and assign, and a deck of the other member's.
    const org = await auth(leaver, 'organization/create', {
      name: 'Leaver Academy',
      slug: `leaver-${Date.now().toString(36)}`,
    });
    await join(leaver, org.id, keeper, 'admin');
    const published = await leaver.api.mutate('orgs.publishDeck', {
      organizationId: org.id,
      name: 'Leaver’s cells',
      tagId: leaverTag.id,
    });
    await leaver.api.mutate('orgs.createAssignment', {
      organizationId: org.id,
      deckId: published.id,
      dueAt: new Date(Date.now() + 86_400_000).toISOString(),
      targetKind: 'cards_learned',
      targetValue: 2,
    });
    const keeperTag = await cardsUnderTag(keeper, 'keeper atoms', [
      ['What is an atom?', 'The smallest unit of an element'],
      ['What is a molecule?', 'Atoms bonded together'],
    ]);
    const kept = await keeper.api.mutate('orgs.publishDeck', {
      organizationId: org.id,
      name: 'Keeper’s atoms',
      tagId: keeperTag.id,
    });
    await keeper.api.mutate('orgs.subscribe', { deckId: published.id });
    await leaver.api.mutate('orgs.subscribe', { deckId: kept.id });
    await waitUntil('both have their copies', async () => {
      const copies = async (who: Person) => (await cardsOf(who)).filter((card) => card.deckId).length;
      return (await copies(keeper)) === 3 && (await copies(leaver)) === 2;
    });
    await reviewFirstDue(keeper, published.id);
    const reviewedCopy = await reviewFirstDue(leaver, kept.id);
    await waitUntil(
      'organizations counted the leaver’s review of the keeper’s deck',
      async () => (await count('SELECT count(*) FROM organizations.deck_reviews WHERE user_id = $1', [leaver.id])) > 0,
    );

    // An invitation to their address they have not answered yet.
    const keeperOrg = await auth(keeper, 'organization/create', {
      name: 'Keeper Club',
      slug: `keeper-${Date.now().toString(36)}`,
    });
    await auth(keeper, 'organization/invite-member', {
      email: leaver.email,
      role: 'member',
      organizationId: keeperOrg.id,
    });

    // A paid plan through the Stripe stand-in, and a generation.
    const { url } = await leaver.api.mutate('billing.checkout', { plan: 'pro', interval: 'month', currency: 'usd' });
    await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: stack.url },
      body: 'action=pay',
    });
    await waitUntil('the plan is pro', async () => (await leaver.api.query('billing.customer')).plan === 'pro');
    const ai = createTRPCClient<AppRouter>({
      links: [
        httpBatchStreamLink({ url: `${stack.url}/api/trpc`, headers: { origin: stack.url, cookie: leaver.cookie } }),
      ],
    });
    for await (const _ of await ai.ai.generate.mutate({
      notes: 'An atom is the smallest unit.',
      count: 1,
      types: ['basic'],
    })) {
      // Drained: the generation is recorded and its usage settled when the stream ends.
    }
    expect(await rowsMentioning([leaver.id])).not.toEqual([]);

    await auth(leaver, 'delete-user', { password: TEST_PASSWORD });
    const services = ['cards', 'organizations', 'billing', 'ai'];
    await waitUntil(
      'every service erased the user',
      async () => {
        for (const service of services) {
          const erased = `SELECT count(*) FROM "${service}".processed_events WHERE consumer = '${service}-erase-user'`;
          if ((await count(erased)) === 0) return false;
        }
        return true;
      },
      30_000,
    );

    // Events about the leaver that were still on their way when the account went.
    const { natsUrl, subjectPrefix } = stack.settings;
    const late = [
      {
        at: ['organizations', 'organizations-deck-reviews'],
        id: await publishEvent(natsUrl, subjectPrefix, ReviewRecorded, {
          reviewId: randomUUID(),
          ownerId: leaver.id,
          cardId: reviewedCopy.cardId,
          itemId: reviewedCopy.id,
          rating: 'good',
          stateBefore: 'new',
          stateAfter: 'learning',
          reviewedAt: new Date(),
          durationMs: 1000,
          due: new Date(),
          lapses: 0,
          deckId: kept.id,
        }),
      },
      {
        at: ['ai', 'ai-plan-changes'],
        id: await publishEvent(natsUrl, subjectPrefix, SubscriptionChanged, {
          userId: leaver.id,
          plan: 'plus',
          state: 'active',
          periodStart: new Date(),
          periodEnd: new Date(Date.now() + 30 * 86_400_000),
        }),
      },
      {
        at: ['cards', 'cards-deck-subscriptions'],
        id: await publishEvent(natsUrl, subjectPrefix, DeckSubscribed, {
          deckId: kept.id,
          userId: leaver.id,
          deckName: 'Keeper’s atoms',
        }),
      },
      {
        at: ['cards', 'cards-deck-subscriptions'],
        id: await publishEvent(natsUrl, subjectPrefix, DeckUnsubscribed, { deckId: kept.id, userId: leaver.id }),
      },
      {
        at: ['organizations', 'organizations-members'],
        id: await publishEvent(natsUrl, subjectPrefix, MemberAdded, {
          organizationId: org.id,
          userId: leaver.id,
          memberId: randomUUID(),
          role: 'member',
        }),
      },
    ];
    await waitUntil('every late event was delivered', async () => {
      for (const { at, id } of late) if (!(await applied(at[0] as string, at[1] as string, id))) return false;
      return true;
    });

    expect(await rowsMentioning([leaver.id, leaver.email])).toEqual([]);

    // The keeper keeps their own cards and deck; the deck the leaver published is gone, text and all.
    const keepers = await cardsOf(keeper);
    expect(keepers.map((card) => card.front).sort()).toEqual(['What is a molecule?', 'What is an atom?']);
    expect(
      (await keeper.api.query('orgs.decks', { organizationId: org.id })).items.map((deck: Json) => deck.id),
    ).toEqual([kept.id]);
    expect(await rowsMentioning([POWERHOUSE])).toEqual([]);
  });
});
