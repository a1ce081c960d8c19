// The practice session: the next card comes at once, reviews leave in the background in order with
// their review ids, failures are retried with the same id, and undo reaches the server after its review.
import { describe, expect, it } from 'vitest';
import { PracticeSession, type Review, type SessionItem } from '../../src/features/practice/session.ts';

const items: SessionItem[] = ['a', 'b', 'c'].map((id) => ({
  id,
  cardId: `card-${id}`,
  front: `Q${id}`,
  back: `A${id}`,
}));

/** A server stand-in at the transport's edge: records what arrives, can drop requests or hold them. */
function recordingTransport() {
  const calls: string[] = [];
  const reviews: Review[] = [];
  let held: (() => void)[] | undefined;
  let failNext = 0;
  async function arrive(label: string, record: () => void) {
    if (held) await new Promise<void>((open) => held?.push(open));
    calls.push(label);
    if (failNext > 0) {
      failNext -= 1;
      throw new TypeError('Failed to fetch');
    }
    record();
  }
  return {
    calls,
    reviews,
    /** The next `n` requests fail as a dropped connection would. */
    failNextRequests(n: number) {
      failNext = n;
    },
    /** Holds every request from now until release(). */
    hold() {
      held = [];
    },
    release() {
      const waiting = held ?? [];
      held = undefined;
      for (const open of waiting) open();
    },
    transport: {
      review: (review: Review) =>
        arrive(`review ${review.id} ${review.rating} ${review.reviewId}`, () => reviews.push(review)),
      undo: (reviewId: string) => arrive(`undo ${reviewId}`, () => {}),
    },
  };
}
let recorder: ReturnType<typeof recordingTransport>;

function session() {
  recorder = recordingTransport();
  let ids = 0;
  let clock = 0;
  const practice = new PracticeSession(items, {
    transport: recorder.transport,
    newReviewId: () => `r${++ids}`,
    now: () => (clock += 1_000),
    retryDelayMs: () => 1,
  });
  return practice;
}

describe('a practice session', () => {
  it('shows the next card as soon as one is rated, before the server has answered', async () => {
    const practice = session();
    recorder.hold();
    practice.reveal();
    practice.rate('good');
    expect(practice.snapshot()).toMatchObject({ current: items[1], revealed: false, unsent: 1, reviewed: 1 });
    recorder.release();
    await practice.settled();
    expect(practice.snapshot().unsent).toBe(0);
  });

  it('only rates a revealed card', () => {
    const practice = session();
    practice.rate('easy');
    expect(practice.snapshot()).toMatchObject({ current: items[0], reviewed: 0 });
  });

  it('sends reviews in the order they were given, each with its own review id and the time spent', async () => {
    const practice = session();
    for (const rating of ['good', 'hard'] as const) {
      practice.reveal();
      practice.rate(rating);
    }
    await practice.settled();
    expect(recorder.reviews.map((r) => [r.id, r.rating, r.reviewId])).toEqual([
      ['a', 'good', 'r1'],
      ['b', 'hard', 'r2'],
    ]);
    expect(recorder.reviews[0]?.durationMs).toBeGreaterThan(0);
  });

  it('retries a review that did not arrive with the same review id, so it counts once', async () => {
    const practice = session();
    recorder.failNextRequests(2);
    practice.reveal();
    practice.rate('good');
    await practice.settled();
    expect(recorder.calls).toEqual(['review a good r1', 'review a good r1', 'review a good r1']);
    expect(recorder.reviews).toHaveLength(1);
  });

  it('brings a card rated "again" back at the end of the session', () => {
    const practice = session();
    practice.reveal();
    practice.rate('again');
    expect(practice.snapshot().remaining).toBe(3);
    for (const _ of [1, 2]) {
      practice.reveal();
      practice.rate('good');
    }
    expect(practice.snapshot().current).toBe(items[0]);
  });

  it('undoes the last rating: the card is shown again and the server undoes it after receiving it', async () => {
    const practice = session();
    recorder.hold();
    practice.reveal();
    practice.rate('again');
    practice.undo();
    expect(practice.snapshot()).toMatchObject({ current: items[0], remaining: 3, reviewed: 0, canUndo: false });
    recorder.release();
    await practice.settled();
    expect(recorder.calls).toEqual(['review a again r1', 'undo r1']);
  });

  it('counts the ratings and the distinct cards for the summary, and ends when the queue is empty', () => {
    const practice = session();
    for (const rating of ['again', 'good', 'easy', 'hard'] as const) {
      practice.reveal();
      practice.rate(rating);
    }
    expect(practice.snapshot()).toMatchObject({
      done: true,
      cardCount: 3,
      reviewed: 4,
      counts: { again: 1, hard: 1, good: 1, easy: 1 },
    });
  });

  it('gives up on a review the server refuses for good, and says so', async () => {
    const errors: unknown[] = [];
    const practice = new PracticeSession(items, {
      transport: { review: () => Promise.reject({ data: { httpStatus: 404 } }), undo: async () => {} },
      onDeliveryError: (error) => errors.push(error),
      retryDelayMs: () => 1,
    });
    practice.reveal();
    practice.rate('good');
    await practice.settled();
    expect(errors).toHaveLength(1);
    expect(practice.snapshot().unsent).toBe(0);
  });
});
