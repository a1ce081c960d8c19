// Shared decks, as a learner sees them: subscribing to a deck of their organization gives them their own
// copies of its cards, which follow the publisher's edits and withdrawals without losing their progress.
// The organizations service's events are published into the service's stream as its relay would, and the
// cards service consumes them as main.ts runs it (real PostgreSQL and NATS).
import { createHash, randomUUID } from 'node:crypto';
import {
  DeckCardPublished,
  DeckCardWithdrawn,
  DeckSubscribed,
  DeckUnsubscribed,
  type EventDefinition,
  ReviewRecorded,
  ReviewUndone,
  UserDeleted,
} from '@engram/contracts/events';
import { eventSubject } from '@engram/kit/events/stream';
import { Actor_Kind, EventEnvelope } from '@engram/proto/events/v1/envelope';
import { waitUntil } from '@engram/testkit/wait';
import { status } from '@grpc/grpc-js';
import { jetstream } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepObjects } from '../../src/media/sweeper.js';
import { type CardsHarness, startCardsHarness } from '../harness.js';

let cards: CardsHarness;
let nats: NatsConnection;

beforeAll(async () => {
  cards = await startCardsHarness({ events: {} });
  await cards.events!.ready;
  const { hostname, port } = new URL(cards.events!.natsUrl);
  nats = await connect({ servers: `${hostname}:${port || 4222}` });
}, 60_000);

afterAll(async () => {
  await nats?.close();
  await cards?.stop();
});

/** Publishes an event as another service's relay would; resolves once a consumer of cards applied it. */
async function deliver<T>(
  event: EventDefinition<T>,
  payload: T,
  { id = randomUUID() as string, occurredAt = new Date() } = {},
): Promise<string> {
  const envelope = EventEnvelope.encode({
    id,
    type: event.subject,
    occurredAt,
    actor: { kind: Actor_Kind.KIND_SYSTEM, id: 'organizations' },
    payload: Buffer.from(event.message.encode(payload).finish()),
  }).finish();
  await jetstream(nats).publish(eventSubject(cards.events!.settings.subjectPrefix, event.subject), envelope);
  await waitUntil(`${event.subject} ${id} is applied`, async () => {
    const { rowCount } = await cards.pool.query('SELECT 1 FROM processed_events WHERE event_id = $1', [id]);
    return rowCount === 1;
  });
  return id;
}

/** A deck of its own for each test, with helpers that publish its events. */
function newDeck(name = `Spanish verbs ${randomUUID().slice(0, 4)}`) {
  const deckId = randomUUID();
  return {
    deckId,
    name,
    publish: (originCardId: string, revision: number, front: string, back = 'answer', type = 'basic') =>
      deliver(DeckCardPublished, { deckId, originCardId, type, front, back, revision }),
    withdraw: (originCardId: string, revision: number) =>
      deliver(DeckCardWithdrawn, { deckId, originCardId, revision, publisherErased: false }),
    subscribe: (userId: string, occurredAt = new Date()) =>
      deliver(DeckSubscribed, { deckId, userId, deckName: name }, { occurredAt }),
    unsubscribe: (userId: string, occurredAt = new Date()) =>
      deliver(DeckUnsubscribed, { deckId, userId }, { occurredAt }),
  };
}

const learner = (name: string) => `${name}-${randomUUID().slice(0, 8)}`;

async function cardsOf(userId: string, archived = false) {
  return (await cards.list(userId, { archived, pageSize: 100 })).items;
}

async function itemsOf(cardId: string) {
  const { rows } = await cards.pool.query<{ ordinal: number; reps: number; stability: number; due: Date }>(
    'SELECT ordinal, reps, stability, due, archived FROM review_items WHERE card_id = $1 ORDER BY ordinal',
    [cardId],
  );
  return rows;
}

async function review(userId: string, cardId: string) {
  const { items } = await cards.as(userId).listDue();
  const item = items.find((due) => due.cardId === cardId)!;
  const reviewId = randomUUID();
  await cards.as(userId).review({ id: item.id, rating: 'good', reviewId, durationMs: 3000 });
  return reviewId;
}

/** The payloads of `event` in the outbox, decoded. */
async function outboxed<T>(event: EventDefinition<T>): Promise<T[]> {
  const { rows } = await cards.pool.query<{ payload: Buffer }>('SELECT payload FROM outbox_events WHERE type = $1', [
    event.subject,
  ]);
  return rows.map((row) => event.message.decode(EventEnvelope.decode(row.payload).payload));
}

describe("a shared deck's images and sounds", () => {
  it("show in a subscriber's copies, and to nobody outside the deck", async () => {
    const deck = newDeck();
    const publisher = learner('pat');
    const [ann, bob] = [learner('ann'), learner('bob')];
    const png = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#06c' } })
      .png()
      .toBuffer();
    const image = await cards.keepFile(publisher, 'cell.png', 'image/png', png);
    const front = `What is this? ![cell](${image.path})`;
    const original = await cards.create(publisher, front, 'A cell');
    await deck.publish(original.id, 1, front, 'A cell');
    await deck.subscribe(ann);

    expect((await cardsOf(ann))[0]?.front).toBe(front);
    expect((await cards.as(ann).openMedia({ id: image.id })).contentType).toBe('image/png');
    const outsider = await cards
      .as(bob)
      .openMedia({ id: image.id })
      .catch((error: { code: number }) => error.code);
    expect(outsider).toBe(status.NOT_FOUND);
  });

  it("leave the store with their owner's account: a deleted learner's files are removed", async () => {
    const gone = learner('gone');
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#999' } })
      .png()
      .toBuffer();
    const image = await cards.keepFile(gone, 'mine.png', 'image/png', png);
    const { objectKey } = await cards.db.mediaFile.findUniqueOrThrow({ where: { id: image.id } });
    await deliver(UserDeleted, { userId: gone });

    expect(await cards.db.mediaFile.count({ where: { ownerId: gone } })).toBe(0);
    await sweepObjects(cards.db, cards.store);
    expect(await cards.store.headObject(objectKey)).toBeNull();
  });
});

describe('subscribing to a shared deck', () => {
  it('gives me a copy of every card of the deck, tagged with the deck name, to study as my own', async () => {
    const deck = newDeck();
    const ann = learner('ann');
    await deck.publish('verb-1', 1, 'hablar');
    await deck.publish('verb-2', 1, '{{c1::comer}} y {{c2::beber}}', '', 'cloze');
    await deck.subscribe(ann);

    const copies = await cardsOf(ann);
    expect(copies.map((card) => card.front).sort()).toEqual(['hablar', '{{c1::comer}} y {{c2::beber}}']);
    for (const copy of copies) {
      expect(copy.deckId).toBe(deck.deckId);
      expect(copy.tags.map((tag) => tag.name)).toEqual([deck.name]);
    }
    const { items } = await cards.as(ann).listDue();
    // One review item per direction, as for a card of my own: the cloze is asked once per deletion.
    expect(items.map((item) => item.front).sort()).toEqual(['[…] y beber', 'comer y […]', 'hablar']);
  });

  it('tags the copies with the tag I already have of the deck name, whatever its case', async () => {
    const deck = newDeck('French');
    const ann = learner('ann');
    const { tag } = await cards.as(ann).createTag({ name: 'french' });
    await deck.publish('mot-1', 1, 'le chat');
    await deck.subscribe(ann);

    const [copy] = await cardsOf(ann);
    expect(copy!.tags).toEqual([{ id: tag!.id, name: 'french' }]);
    expect((await cards.as(ann).listTags()).items).toHaveLength(1);
  });

  it('ends with every copy when the subscription is delivered before the cards', async () => {
    const deck = newDeck();
    const ann = learner('ann');
    await deck.subscribe(ann);
    await deck.publish('verb-1', 1, 'hablar');
    await deck.publish('verb-2', 1, 'vivir');

    expect((await cardsOf(ann)).map((card) => card.front).sort()).toEqual(['hablar', 'vivir']);
  });

  it('copies no card that was withdrawn before I subscribed', async () => {
    const deck = newDeck();
    const ann = learner('ann');
    await deck.publish('verb-1', 1, 'hablar');
    await deck.publish('verb-2', 1, 'vivir');
    await deck.withdraw('verb-2', 2);
    await deck.subscribe(ann);

    expect((await cardsOf(ann)).map((card) => card.front)).toEqual(['hablar']);
  });
});

describe('studying a copy', () => {
  it('tells the organization which deck my review and its undo belong to, and says no deck for my own cards', async () => {
    const deck = newDeck();
    const ann = learner('ann');
    await deck.publish('verb-1', 1, 'hablar');
    await deck.subscribe(ann);
    const [copy] = await cardsOf(ann);
    const own = await cards.create(ann, 'my own card');

    const reviewOfCopy = await review(ann, copy!.id);
    const reviewOfOwn = await review(ann, own.id);
    await cards.as(ann).undoReview({ reviewId: reviewOfCopy });

    const recorded = await outboxed(ReviewRecorded);
    expect(recorded.find((event) => event.reviewId === reviewOfCopy)?.deckId).toBe(deck.deckId);
    expect(recorded.find((event) => event.reviewId === reviewOfOwn)?.deckId).toBe('');
    const undone = await outboxed(ReviewUndone);
    expect(undone.find((event) => event.reviewId === reviewOfCopy)?.deckId).toBe(deck.deckId);
  });
});

describe('when the publisher changes the deck', () => {
  it('an edited card changes the text of my copy and keeps my progress on it', async () => {
    const deck = newDeck();
    const ann = learner('ann');
    await deck.publish('verb-1', 1, 'hablar', 'to talk');
    await deck.subscribe(ann);
    const [copy] = await cardsOf(ann);
    await review(ann, copy!.id);
    const before = await itemsOf(copy!.id);
    expect(before[0]!.reps).toBe(1);

    await deck.publish('verb-1', 2, 'hablar (v.)', 'to speak');

    const [edited] = await cardsOf(ann);
    expect(edited).toMatchObject({ id: copy!.id, front: 'hablar (v.)', back: 'to speak' });
    expect(await itemsOf(copy!.id)).toEqual(before);
  });

  it('a cloze edit keeps the progress of the deletions that remain, adds the new ones and drops the vanished', async () => {
    const deck = newDeck();
    const ann = learner('ann');
    await deck.publish('c', 1, '{{c1::uno}} {{c2::dos}}', '', 'cloze');
    await deck.subscribe(ann);
    const [copy] = await cardsOf(ann);
    await review(ann, copy!.id);
    const reviewed = (await itemsOf(copy!.id)).find((item) => item.reps === 1)!;

    const text = [reviewed.ordinal === 1 ? '{{c1::uno}}' : '{{c2::dos}}', '{{c3::tres}}'].join(' ');
    await deck.publish('c', 2, text, '', 'cloze');

    const after = await itemsOf(copy!.id);
    expect(after.map((item) => item.ordinal)).toEqual([reviewed.ordinal, 3]);
    expect(after[0]).toEqual(reviewed);
    expect(after[1]!.reps).toBe(0);
  });

  it('an older revision arriving late changes nothing', async () => {
    const deck = newDeck();
    const ann = learner('ann');
    await deck.subscribe(ann);
    await deck.publish('verb-1', 3, 'newest');
    await deck.publish('verb-1', 2, 'older');
    await deck.withdraw('verb-1', 1);

    const [copy] = await cardsOf(ann);
    expect(copy).toMatchObject({ front: 'newest', archived: false });
  });

  it('a withdrawn card archives my copy: it is never due again, and its progress is kept', async () => {
    const deck = newDeck();
    const ann = learner('ann');
    await deck.publish('verb-1', 1, 'hablar');
    await deck.publish('verb-2', 1, 'vivir');
    await deck.subscribe(ann);
    const copy = (await cardsOf(ann)).find((card) => card.front === 'vivir')!;
    await review(ann, copy.id);

    await deck.withdraw('verb-2', 2);

    expect((await cardsOf(ann)).map((card) => card.front)).toEqual(['hablar']);
    expect((await cardsOf(ann, true)).map((card) => card.id)).toEqual([copy.id]);
    expect((await cards.as(ann).listDue()).items.map((item) => item.front)).toEqual(['hablar']);
    expect((await itemsOf(copy.id))[0]).toMatchObject({ reps: 1, archived: true });
  });

  it('a card withdrawn because its publisher’s account was deleted takes my copy and its text with it', async () => {
    const deck = newDeck();
    const ann = learner('ann');
    await deck.publish('verb-1', 1, 'hablar');
    await deck.publish('verb-2', 1, 'vivir');
    await deck.subscribe(ann);
    const gone = (await cardsOf(ann)).find((card) => card.front === 'vivir')!;
    await review(ann, gone.id);

    await deliver(DeckCardWithdrawn, {
      deckId: deck.deckId,
      originCardId: 'verb-2',
      revision: 2,
      publisherErased: true,
    });

    expect((await cardsOf(ann)).map((card) => card.front)).toEqual(['hablar']);
    expect(await cardsOf(ann, true)).toEqual([]);
    expect(await itemsOf(gone.id)).toEqual([]);
    const { rows } = await cards.pool.query(
      'SELECT front, back FROM deck_cards WHERE deck_id = $1 AND origin_card_id = $2',
      [deck.deckId, 'verb-2'],
    );
    expect(rows).toEqual([{ front: '', back: '' }]);
  });

  it('a card published again after its withdrawal comes back to my copy, with its progress', async () => {
    const deck = newDeck();
    const ann = learner('ann');
    await deck.publish('verb-1', 1, 'hablar');
    await deck.subscribe(ann);
    const [copy] = await cardsOf(ann);
    await review(ann, copy!.id);
    await deck.withdraw('verb-1', 2);

    await deck.publish('verb-1', 3, 'hablar otra vez');

    expect(await cardsOf(ann)).toMatchObject([{ id: copy!.id, front: 'hablar otra vez', archived: false }]);
    expect((await itemsOf(copy!.id))[0]).toMatchObject({ reps: 1, archived: false });
  });
});

describe('leaving a deck', () => {
  it('archives my copies, and subscribing again restores them with my progress and the latest text', async () => {
    const deck = newDeck();
    const ann = learner('ann');
    await deck.publish('verb-1', 1, 'hablar');
    await deck.publish('verb-2', 1, 'vivir');
    await deck.subscribe(ann);
    const copies = await cardsOf(ann);
    const studied = copies.find((card) => card.front === 'hablar')!;
    await review(ann, studied.id);
    const progress = await itemsOf(studied.id);

    await deck.unsubscribe(ann);
    expect(await cardsOf(ann)).toEqual([]);
    expect(await cardsOf(ann, true)).toHaveLength(2);
    expect((await cards.as(ann).listDue()).items).toEqual([]);

    // Edits made while I was away reach my archived copy, which stays archived.
    await deck.publish('verb-2', 2, 'vivir (v.)');
    expect((await cardsOf(ann, true)).map((card) => card.front).sort()).toEqual(['hablar', 'vivir (v.)']);

    await deck.subscribe(ann);
    const restored = await cardsOf(ann);
    expect(restored.map((card) => card.id).sort()).toEqual(copies.map((card) => card.id).sort());
    expect(await itemsOf(studied.id)).toEqual(progress.map((item) => ({ ...item, archived: false })));
  });

  it('leaves me out when I left just after joining, even if the two arrive the other way round', async () => {
    const deck = newDeck();
    const ann = learner('ann');
    await deck.publish('verb-1', 1, 'hablar');
    const joined = new Date(Date.now() - 1_000);
    await deck.unsubscribe(ann, new Date(joined.getTime() + 10));
    await deck.subscribe(ann, joined);

    expect(await cardsOf(ann)).toEqual([]);
    await deck.publish('verb-2', 1, 'vivir');
    expect(await cardsOf(ann)).toEqual([]);
  });

  it('goes with my account: a card published after it was deleted makes me no copy', async () => {
    const deck = newDeck();
    const ann = learner('ann');
    await deck.subscribe(ann);
    await deck.publish('verb-1', 1, 'hablar');
    await deliver(UserDeleted, { userId: ann });

    await deck.publish('verb-2', 1, 'vivir');

    expect(await cardsOf(ann)).toEqual([]);
    const { rowCount } = await cards.pool.query('SELECT 1 FROM deck_subscribers WHERE user_id = $1', [ann]);
    expect(rowCount).toBe(0);
  });
});

describe('after my account was deleted', () => {
  it('a subscription or its end that travelled behind the deletion keeps nothing of me', async () => {
    const deck = newDeck();
    const ann = learner('ann');
    await deck.publish('verb-1', 1, 'hablar');
    await deliver(UserDeleted, { userId: ann });

    await deck.subscribe(ann);
    await deck.unsubscribe(ann);

    expect([...(await cardsOf(ann)), ...(await cardsOf(ann, true))]).toEqual([]);
    const { rowCount } = await cards.pool.query('SELECT 1 FROM deck_subscribers WHERE user_id = $1', [ann]);
    expect(rowCount).toBe(0);
    const erased = await cards.pool.query('SELECT user_hash FROM erased_users');
    expect(erased.rows.map((row) => row.user_hash)).toContain(createHash('sha256').update(ann).digest('hex'));
    expect(JSON.stringify(erased.rows)).not.toContain(ann);
  });
});

describe('events delivered again', () => {
  it('create nothing twice, whether the same event comes twice or the organization repeats it', async () => {
    const deck = newDeck();
    const ann = learner('ann');
    const published = {
      deckId: deck.deckId,
      originCardId: 'verb-1',
      type: 'basic',
      front: 'hablar',
      back: 'x',
      revision: 1,
    };
    const subscribed = { deckId: deck.deckId, userId: ann, deckName: deck.name };
    const publishedId = await deliver(DeckCardPublished, published);
    const subscribedId = await deliver(DeckSubscribed, subscribed);

    // The same event again (a relay that published twice), and the same facts as new events.
    await deliver(DeckCardPublished, published, { id: publishedId });
    await deliver(DeckSubscribed, subscribed, { id: subscribedId });
    await deliver(DeckCardPublished, published);
    await deliver(DeckSubscribed, subscribed);

    const copies = await cardsOf(ann);
    expect(copies).toHaveLength(1);
    expect(copies[0]!.tags).toHaveLength(1);
    expect((await cards.as(ann).listTags()).items).toHaveLength(1);
    expect(await itemsOf(copies[0]!.id)).toHaveLength(1);
  });
});

describe("another learner's cards", () => {
  it('are untouched by my subscriptions, my leaving and the deck changes I receive', async () => {
    const deck = newDeck();
    const other = newDeck();
    const ann = learner('ann');
    const bob = learner('bob');
    const bobsOwn = await cards.create(bob, 'bob’s own card');
    await other.publish('o-1', 1, 'other deck');
    await other.subscribe(bob);
    await deck.publish('verb-1', 1, 'hablar');
    await deck.subscribe(bob);
    const bobsBefore = await cardsOf(bob);
    expect(bobsBefore).toHaveLength(3);

    await deck.subscribe(ann);
    await deck.unsubscribe(ann);

    const bobsAfter = await cardsOf(bob);
    expect(bobsAfter).toEqual(bobsBefore);
    expect(bobsAfter.find((card) => card.id === bobsOwn.id)?.deckId).toBe('');
    expect(await cardsOf(ann)).toEqual([]);
  });
});
