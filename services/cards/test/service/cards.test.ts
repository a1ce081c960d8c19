// The cards service: who may call it, whose cards it returns, and how it pages.
import { CardCreated } from '@engram/contracts/events';
import { unary } from '@engram/kit/grpc/client';
import { createInternalTokenSigner, generateInternalKeys } from '@engram/kit/internal-auth';
import { CreateCardRequest, ListCardsRequest } from '@engram/proto/cards/v1/cards';
import { grpcFailure } from '@engram/testkit/grpc';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CardsHarness, startCardsHarness } from '../harness.js';

let cards: CardsHarness;

beforeAll(async () => {
  cards = await startCardsHarness();
});
afterAll(() => cards?.stop());

describe('calls without a valid internal token', () => {
  const request = ListCardsRequest.fromPartial({ pageSize: 10 });

  it('rejects a call that carries no token', async () => {
    const error = await grpcFailure(unary(cards.client, cards.client.listCards, request));
    expect(error.code).toBe(status.UNAUTHENTICATED);
  });

  it('rejects a token signed with a key the service does not trust', async () => {
    const stranger = await createInternalTokenSigner((await generateInternalKeys()).privateJwk);
    const token = await stranger.sign(
      { userId: 'u1', sessionId: 's1', role: 'user', activeOrganizationId: null },
      'cards',
    );
    const error = await grpcFailure(unary(cards.client, cards.client.listCards, request, { token }));
    expect(error.code).toBe(status.UNAUTHENTICATED);
  });

  it('rejects a token meant for another service', async () => {
    const token = await cards.signer.sign(
      { userId: 'u1', sessionId: 's1', role: 'user', activeOrganizationId: null },
      'billing',
    );
    const error = await grpcFailure(unary(cards.client, cards.client.listCards, request, { token }));
    expect(error.code).toBe(status.UNAUTHENTICATED);
  });

  it('rejects a service token where a user must be named', async () => {
    const token = await cards.signer.signSystem('gateway', 'cards');
    const error = await grpcFailure(
      unary(cards.client, cards.client.createCard, CreateCardRequest.fromPartial({ front: 'f', back: 'b' }), { token }),
    );
    expect(error.code).toBe(status.UNAUTHENTICATED);
    expect(await cards.db.card.count({ where: { front: 'f' } })).toBe(0);
  });

  it('rejects a garbled token', async () => {
    const error = await grpcFailure(unary(cards.client, cards.client.listCards, request, { token: 'not-a-jwt' }));
    expect(error.code).toBe(status.UNAUTHENTICATED);
  });
});

describe('ownership', () => {
  it("never returns another user's cards, on any page or with anyone's cursor", async () => {
    for (const front of ['a1', 'a2', 'a3']) await cards.create('alice', front);
    await cards.create('bob', 'b1');

    const bob = await cards.list('bob');
    expect(bob.items.map((c) => c.front)).toEqual(['b1']);
    expect(bob.items.every((c) => c.ownerId === 'bob')).toBe(true);

    const alicePage = await cards.list('alice', { pageSize: 2 });
    expect(alicePage.nextCursor).not.toBe('');
    const bobWithAliceCursor = await cards.list('bob', { cursor: alicePage.nextCursor });
    expect(bobWithAliceCursor.items.every((c) => c.ownerId === 'bob')).toBe(true);
  });

  it('stores a new card under the caller, whatever the request says', async () => {
    const card = await cards.create('carol', 'mine');
    expect(card.ownerId).toBe('carol');
    expect((await cards.db.card.findUniqueOrThrow({ where: { id: card.id } })).ownerId).toBe('carol');
  });
});

describe('listing', () => {
  it('pages newest first with an opaque cursor until the last page', async () => {
    const fronts = Array.from({ length: 12 }, (_, i) => `dave-${String(i).padStart(2, '0')}`);
    for (const front of fronts) await cards.create('dave', front);

    const first = await cards.list('dave');
    expect(first.items).toHaveLength(10);
    expect(first.items.map((c) => c.front)).toEqual([...fronts].reverse().slice(0, 10));
    const second = await cards.list('dave', { cursor: first.nextCursor });
    expect(second.items.map((c) => c.front)).toEqual(['dave-01', 'dave-00']);
    expect(second.nextCursor).toBe('');
  });

  it('keeps archived cards out of the default list', async () => {
    const card = await cards.create('erin', 'to archive');
    await cards.db.card.update({ where: { id: card.id }, data: { archived: true } });
    expect((await cards.list('erin')).items).toEqual([]);
    expect((await cards.list('erin', { archived: true })).items.map((c) => c.id)).toEqual([card.id]);
  });

  it('answers a malformed cursor with a clear error', async () => {
    const error = await grpcFailure(cards.list('erin', { cursor: 'not a cursor' }));
    expect(error.code).toBe(status.INVALID_ARGUMENT);
    expect(error.message).toBe('The cursor is not valid for this list.');
  });
});

describe('creating', () => {
  it('refuses an empty side with a message and stores nothing', async () => {
    const error = await grpcFailure(cards.as('frank').createCard({ front: '   ', back: 'x' }));
    expect(error.code).toBe(status.INVALID_ARGUMENT);
    expect(error.message).toBe('Front is required.');
    expect(await cards.db.card.count({ where: { ownerId: 'frank' } })).toBe(0);
  });

  it('records CardCreated in the outbox with the card', async () => {
    const card = await cards.create('gina', 'evented');
    const created = (await cards.outboxEvents(CardCreated)).filter(({ payload }) => payload.cardId === card.id);
    expect(created.map(({ payload }) => ({ cardId: payload.cardId, ownerId: payload.ownerId }))).toEqual([
      { cardId: card.id, ownerId: 'gina' },
    ]);
  });
});
