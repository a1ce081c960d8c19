// The habits Anki learners bring to a practice session: each rating's interval on its button, items rated
// in the session coming back when they fall due (learning ahead up to 20 minutes), and a session that
// goes on from where it was after a page load.
import { LEARN_AHEAD_MINUTES } from '@engram/contracts/learning';
import { afterEach, describe, expect, it } from 'vitest';
import { formatInterval } from '../../src/features/practice/intervals.ts';
import {
  type Intervals,
  PracticeSession,
  type Review,
  type SessionItem,
  type SessionOptions,
} from '../../src/features/practice/session.ts';
import { setLocale } from '../../src/lib/i18n.ts';

const MINUTE = 60_000;
/** A new card's intervals under the default steps (1m, 10m): again 1m, hard 6m, good 10m, easy 10 days. */
const NEW_CARD: Intervals = { again: 60, hard: 360, good: 600, easy: 864_000 };

const items: SessionItem[] = ['a', 'b'].map((id) => ({
  id,
  cardId: `card-${id}`,
  front: `Q${id}`,
  back: `A${id}`,
  nextIntervals: NEW_CARD,
}));

/** A session on a clock the test moves; the server answers each review with `answer`'s intervals. */
function session(answer: Intervals | null = NEW_CARD, sent: string[] = []) {
  const clock = { now: 1_000_000 };
  let ids = 0;
  const options: SessionOptions = {
    transport: {
      review: async (review: Review) => {
        sent.push(`review ${review.id} ${review.rating} ${review.reviewId}`);
        return { nextIntervals: answer };
      },
      undo: async (reviewId: string) => {
        sent.push(`undo ${reviewId}`);
      },
    },
    newReviewId: () => `r${++ids}`,
    now: () => clock.now,
    retryDelayMs: () => 1,
  };
  return { practice: new PracticeSession(items, options), clock, options, sent };
}

function rate(practice: PracticeSession<SessionItem>, rating: 'again' | 'hard' | 'good' | 'easy') {
  practice.reveal();
  practice.rate(rating);
}

describe('the interval on each rating button', () => {
  afterEach(() => setLocale('en'));

  it('is as short as Anki writes it: minutes, hours, days, months, years', () => {
    expect([60, 600, 3 * 3600, 86_400, 4 * 86_400, 91 * 86_400, 548 * 86_400].map(formatInterval)).toEqual([
      '1m',
      '10m',
      '3h',
      '1d',
      '4d',
      '3mo',
      '1.5y',
    ]);
  });

  it('speaks Brazilian Portuguese, decimal comma included', () => {
    setLocale('pt-BR');
    expect([600, 4 * 86_400, 548 * 86_400].map(formatInterval)).toEqual(['10 min', '4 d', '1,5 a']);
  });

  it("is the current item's, from the due list and then from the server's answer for a returning item", async () => {
    const answer: Intervals = { again: 60, hard: 600, good: 86_400, easy: 4 * 86_400 };
    const { practice, clock } = session(answer);
    expect(practice.snapshot().intervals).toEqual(NEW_CARD);
    rate(practice, 'again');
    rate(practice, 'easy');
    await practice.settled();
    clock.now += 2 * MINUTE;
    // b went away for days; a, due again after its minute, is back with what the server said of it.
    expect(practice.snapshot()).toMatchObject({ current: items[0], intervals: answer });
  });
});

describe('learning ahead', () => {
  it('shows an item rated again once its minute is up, before the rest of the queue', () => {
    const { options, clock } = session();
    const c: SessionItem = { ...items[1]!, id: 'c', front: 'Qc' };
    const practice = new PracticeSession([...items, c], options);
    rate(practice, 'again');
    expect(practice.snapshot().current).toBe(items[1]);
    clock.now += 61_000;
    rate(practice, 'good');
    expect(practice.snapshot().current).toBe(items[0]);
  });

  it(`keeps the session going while a rated item falls due within ${LEARN_AHEAD_MINUTES} minutes, instead of ending it`, () => {
    const { practice } = session();
    rate(practice, 'good'); // a: back in 10 minutes
    rate(practice, 'good'); // b: back in 10 minutes
    // Nothing is due now, but both fall due within the limit: the session learns ahead, earliest first.
    expect(practice.snapshot()).toMatchObject({ done: false, current: items[0], remaining: 2 });
  });

  it(`ends when nothing falls due within ${LEARN_AHEAD_MINUTES} minutes`, () => {
    const { practice } = session(null);
    rate(practice, 'easy'); // days away
    rate(practice, 'good'); // 10 minutes: comes back
    expect(practice.snapshot().current).toBe(items[1]);
    rate(practice, 'easy');
    expect(practice.snapshot()).toMatchObject({ done: true, reviewed: 3, cardCount: 2 });
  });

  it('leaves out an item whose next step is further away than the limit', () => {
    const far: SessionItem = { ...items[0]!, nextIntervals: { ...NEW_CARD, good: 30 * 60 } };
    const practice = new PracticeSession([far], session().options);
    rate(practice, 'good');
    expect(practice.snapshot().done).toBe(true);
  });

  it('undoes a rating whose item was coming back: it is shown now and no longer waits', () => {
    const { practice } = session();
    rate(practice, 'again');
    practice.undo();
    expect(practice.snapshot()).toMatchObject({ current: items[0], remaining: 2, reviewed: 0 });
    rate(practice, 'easy');
    rate(practice, 'easy');
    expect(practice.snapshot().done).toBe(true);
  });
});

describe('a session across a page load', () => {
  it('goes on from the same card, revealed or not, with the ratings so far for the results and undo', async () => {
    const { practice, options, sent } = session();
    rate(practice, 'again');
    practice.reveal();
    await practice.settled();
    const saved = JSON.parse(JSON.stringify(practice.toJSON()));

    const restored = PracticeSession.restore<SessionItem>(saved, options);
    expect(restored.snapshot()).toMatchObject({
      current: items[1],
      revealed: true,
      reviewed: 1,
      counts: { again: 1 },
      canUndo: true,
    });
    restored.undo();
    expect(restored.snapshot().current).toEqual(items[0]);
    await restored.settled();
    expect(sent).toEqual(['review a again r1', 'undo r1']);
  });

  it('sends again what had not reached the server, with the same review ids', async () => {
    const held: Review[] = [];
    const { options } = session();
    const offline = new PracticeSession(items, {
      ...options,
      transport: {
        review: (review) => {
          held.push(review);
          return new Promise(() => {}); // never answered: the page is closed first
        },
        undo: async () => {},
      },
    });
    rate(offline, 'good');
    const saved = JSON.parse(JSON.stringify(offline.toJSON()));

    const delivered: string[] = [];
    const restored = PracticeSession.restore<SessionItem>(saved, {
      ...options,
      transport: { review: async (review) => void delivered.push(review.reviewId), undo: async () => {} },
    });
    await restored.settled();
    expect(delivered).toEqual([held[0]?.reviewId]);
    expect(restored.snapshot()).toMatchObject({ unsent: 0, reviewed: 1, current: items[1] });
  });
});
