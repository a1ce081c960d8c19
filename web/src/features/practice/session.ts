// A practice session's state, free of React: the queue of due items, what the learner has revealed and
// rated, undo, and the reviews that still have to reach the server. Rating shows the next card at once;
// each review goes out in the background, in order, with its own review id, so a slow network never
// blocks the learner and a retried request never counts twice.
//
// As in Anki, an item rated in the session comes back when it falls due again (a learning step of a
// minute or ten): a returning item that is due goes before the rest of the queue, and once the queue is
// out the session learns ahead, showing what falls due within LEARN_AHEAD_MINUTES; it is done only when
// nothing does. The whole state (toJSON, restore) survives a page load, deliveries not yet acknowledged
// included: they are sent again, which the server's review ids make harmless.
import type { RatingName } from '@engram/contracts/learning';
import { LEARN_AHEAD_MINUTES, RATINGS } from '@engram/contracts/learning';
import { isFinalRefusal } from '../../lib/error-codes';

/** Seconds each rating would put an item off (the cards service computes them with the learner's settings). */
export type Intervals = Record<RatingName, number>;

export interface SessionItem {
  id: string;
  cardId: string;
  /** The card's type: a typed-answer card (typed) asks for the answer to be typed. */
  type?: string;
  front: string;
  back: string;
  /** A note's item whose template asks for a typed answer: what is to be typed. */
  typed?: { expected: string; ignoreAccents: boolean } | undefined;
  /** A note's note type, whose styling its card is drawn with (NoteTypeStyles). */
  noteTypeId?: string | undefined;
  /** What each rating would give this item now; absent or null when the server did not say. */
  nextIntervals?: Intervals | null;
}

export interface Review {
  id: string;
  rating: RatingName;
  reviewId: string;
  durationMs: number;
  /** When it was rated (ISO): the time a review sent later, once the network is back, is recorded at. */
  reviewedAt: string;
}

/** What the server answers a review with: the intervals of the item's next review. */
export interface ReviewAnswer {
  nextIntervals?: Intervals | null;
}

export interface Transport {
  /** Resolves with the server's answer (a ReviewAnswer when it says what comes next). */
  review(review: Review): Promise<unknown>;
  undo(reviewId: string): Promise<unknown>;
}

export type Counts = Record<RatingName, number>;

export interface SessionSnapshot<T extends SessionItem> {
  current: T | undefined;
  /** What each rating would give the current item, when known. */
  intervals: Intervals | null;
  revealed: boolean;
  /** Reviews given so far (undone ones excluded). */
  reviewed: number;
  /** Distinct items reviewed at least once. */
  cardCount: number;
  counts: Counts;
  /** Items still to show, the current one included (returning ones that fall due within the limit). */
  remaining: number;
  canUndo: boolean;
  /** Reviews and undos not yet acknowledged by the server. */
  unsent: number;
  done: boolean;
}

/** An item rated in this session that comes back when it falls due; `by` is the review that sent it away. */
interface Returning<T> {
  item: T;
  dueAt: number;
  intervals: Intervals | null;
  by: string;
}

/** The item on screen, and where it came from (null: the queue). */
interface Showing<T> {
  item: T;
  intervals: Intervals | null;
  from: Returning<T> | null;
}

interface Step<T> {
  shown: Showing<T>;
  review: Review;
  returning: Returning<T> | null;
}

type Delivery = { kind: 'review'; review: Review } | { kind: 'undo'; reviewId: string };

/** Everything a session needs to go on after a page load (plain JSON). */
export interface SavedSession<T extends SessionItem> {
  queue: T[];
  position: number;
  showing: Showing<T> | null;
  revealed: boolean;
  returning: Returning<T>[];
  history: Step<T>[];
  outbox: Delivery[];
  refused: string[];
}

export interface SessionOptions {
  transport: Transport;
  /** Called when a review or undo could not be delivered for good (a client error, not a network one). */
  onDeliveryError?: (error: unknown) => void;
  newReviewId?: () => string;
  now?: () => number;
  /** Waits between delivery attempts; tests pass a faster one. */
  retryDelayMs?: (attempt: number) => number;
  learnAheadMs?: number;
}

const defaultDelay = (attempt: number) => Math.min(1_000 * 2 ** attempt, 30_000);
/** Only an item put off by less than this can come back within a session. */
const SAME_DAY_MS = 86_400_000;

const earliest = <T>(returning: Returning<T>[], by: number) =>
  returning.filter((entry) => entry.dueAt <= by).sort((a, b) => a.dueAt - b.dueAt)[0];

export class PracticeSession<T extends SessionItem> {
  private readonly queue: T[];
  private position = 0;
  private showing: Showing<T> | undefined;
  private returning: Returning<T>[] = [];
  private revealedAt: number | undefined;
  private shownAt: number;
  private readonly history: Step<T>[] = [];
  private readonly outbox: Delivery[] = [];
  private readonly refused = new Set<string>();
  private running: Promise<void> = Promise.resolve();
  private pumping = false;
  private readonly listeners = new Set<() => void>();
  private snapshotCache: SessionSnapshot<T> | undefined;
  private readonly options: Required<Omit<SessionOptions, 'onDeliveryError'>> & Pick<SessionOptions, 'onDeliveryError'>;

  constructor(items: T[], options: SessionOptions, saved?: SavedSession<T>) {
    this.options = {
      newReviewId: () => crypto.randomUUID(),
      now: () => Date.now(),
      retryDelayMs: defaultDelay,
      learnAheadMs: LEARN_AHEAD_MINUTES * 60_000,
      ...options,
    };
    this.shownAt = this.options.now();
    if (saved) {
      this.queue = saved.queue;
      this.position = saved.position;
      this.showing = saved.showing ?? undefined;
      this.returning = saved.returning;
      this.history.push(...saved.history);
      for (const id of saved.refused) this.refused.add(id);
      if (saved.revealed) this.revealedAt = this.shownAt;
      this.outbox.push(...saved.outbox);
      this.pump();
    } else {
      this.queue = [...items];
      this.showing = this.pickNext();
    }
  }

  /** A session that goes on from `saved` (what toJSON gave before a page load), sending what was left unsent. */
  static restore<T extends SessionItem>(saved: SavedSession<T>, options: SessionOptions): PracticeSession<T> {
    return new PracticeSession<T>([], options, saved);
  }

  toJSON(): SavedSession<T> {
    return {
      queue: this.queue,
      position: this.position,
      showing: this.showing ?? null,
      revealed: this.revealedAt !== undefined,
      returning: this.returning,
      history: this.history,
      outbox: this.outbox,
      refused: [...this.refused],
    };
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  snapshot = (): SessionSnapshot<T> => {
    if (this.snapshotCache) return this.snapshotCache;
    const counts = Object.fromEntries(RATINGS.map((r) => [r, 0])) as Counts;
    for (const step of this.history) counts[step.review.rating] += 1;
    const horizon = this.options.now() + this.options.learnAheadMs;
    this.snapshotCache = {
      current: this.showing?.item,
      intervals: this.showing?.intervals ?? null,
      revealed: this.revealedAt !== undefined,
      reviewed: this.history.length,
      cardCount: new Set(this.history.map((step) => step.shown.item.id)).size,
      counts,
      remaining:
        this.queue.length -
        this.position +
        (this.showing ? 1 : 0) +
        this.returning.filter((entry) => entry.dueAt <= horizon).length,
      canUndo: this.history.length > 0,
      unsent: this.outbox.length,
      done: this.showing === undefined,
    };
    return this.snapshotCache;
  };

  reveal(): void {
    if (!this.showing || this.revealedAt !== undefined) return;
    this.revealedAt = this.options.now();
    this.changed();
  }

  rate(rating: RatingName): void {
    const shown = this.showing;
    if (!shown || this.revealedAt === undefined) return;
    const now = this.options.now();
    const review: Review = {
      id: shown.item.id,
      rating,
      reviewId: this.options.newReviewId(),
      durationMs: Math.max(0, now - this.shownAt),
      reviewedAt: new Date(now).toISOString(),
    };
    const seconds = shown.intervals?.[rating];
    // Without the server's word, "again" is taken to come back within the limit, as a learning step does.
    const putOffMs =
      seconds === undefined ? (rating === 'again' ? this.options.learnAheadMs : undefined) : seconds * 1000;
    const returning =
      putOffMs !== undefined && putOffMs < SAME_DAY_MS
        ? { item: shown.item, dueAt: now + putOffMs, intervals: null, by: review.reviewId }
        : null;
    if (returning) this.returning.push(returning);
    this.history.push({ shown, review, returning });
    this.showing = this.pickNext();
    this.enqueue({ kind: 'review', review });
    this.show();
  }

  /** Takes back the last rating: its card is shown again, and the server is told once it has the review. */
  undo(): void {
    const step = this.history.pop();
    if (!step) return;
    if (this.showing?.from) this.returning.push(this.showing.from);
    else if (this.showing) this.position -= 1;
    const undone = step.returning;
    if (undone) this.returning = this.returning.filter((entry) => entry.by !== undone.by);
    this.showing = step.shown;
    this.enqueue({ kind: 'undo', reviewId: step.review.reviewId });
    this.show();
  }

  /** Resolves when every review and undo so far has reached the server (or was given up on). */
  async settled(): Promise<void> {
    while (this.outbox.length > 0) await this.running;
  }

  /** A returning item that is due, else the queue's next, else one falling due within the limit. */
  private pickNext(): Showing<T> | undefined {
    const now = this.options.now();
    const take = (entry: Returning<T>): Showing<T> => {
      this.returning = this.returning.filter((other) => other !== entry);
      return { item: entry.item, intervals: entry.intervals, from: entry };
    };
    const due = earliest(this.returning, now);
    if (due) return take(due);
    const item = this.queue[this.position];
    if (item) {
      this.position += 1;
      return { item, intervals: item.nextIntervals ?? null, from: null };
    }
    const ahead = earliest(this.returning, now + this.options.learnAheadMs);
    return ahead ? take(ahead) : undefined;
  }

  private show(): void {
    this.revealedAt = undefined;
    this.shownAt = this.options.now();
    this.changed();
  }

  /** The server said what each rating will give the item `by` sent away, at its next review. */
  private learnIntervals(by: string, intervals: Intervals): void {
    const entries = [...this.returning, this.showing?.from, ...this.history.map((step) => step.returning)];
    for (const entry of entries) if (entry?.by === by) entry.intervals = intervals;
    if (this.showing?.from?.by === by) this.showing.intervals = intervals;
    this.changed();
  }

  private enqueue(delivery: Delivery): void {
    this.outbox.push(delivery);
    this.pump();
  }

  /** Sends the outbox in order, one request at a time. */
  private pump(): void {
    if (this.pumping) return;
    this.pumping = true;
    this.running = (async () => {
      for (let next = this.outbox[0]; next; next = this.outbox[0]) {
        await this.deliver(next);
        this.outbox.shift();
        this.changed();
      }
      this.pumping = false;
    })();
  }

  private async deliver(delivery: Delivery): Promise<void> {
    if (delivery.kind === 'review') {
      const answer = await this.untilDelivered(() => this.options.transport.review(delivery.review));
      const next = (answer as ReviewAnswer | undefined)?.nextIntervals;
      if (answer === false) this.refused.add(delivery.review.reviewId);
      else if (next) this.learnIntervals(delivery.review.reviewId, next);
    } else if (!this.refused.has(delivery.reviewId)) {
      // Deliveries go one after another, so this runs after the review itself: the server can only undo a
      // review it has, and one it refused needs no undo.
      await this.untilDelivered(() => this.options.transport.undo(delivery.reviewId));
    }
  }

  /** Retries one request until it is delivered (its answer) or refused for good (false). */
  private async untilDelivered<A>(send: () => Promise<A>): Promise<A | false> {
    for (let tries = 0; ; tries += 1) {
      try {
        return await send();
      } catch (error) {
        // Network failures and server errors are tried again with growing waits; a final refusal is not.
        if (isFinalRefusal(error)) {
          this.options.onDeliveryError?.(error);
          return false;
        }
        await new Promise((resolve) => setTimeout(resolve, this.options.retryDelayMs(tries)));
      }
    }
  }

  private changed(): void {
    this.snapshotCache = undefined;
    for (const listener of this.listeners) listener();
  }
}
