// A practice session's state, free of React: the queue of due items, what the learner has revealed and
// rated, undo, and the reviews that still have to reach the server. Rating shows the next card at once;
// each review goes out in the background, in order, with its own review id, so a slow network never
// blocks the learner and a retried request never counts twice. An item rated "again" comes back at the
// end of the queue, as it will be due again within minutes.
import type { RatingName } from '@engram/contracts/learning';
import { RATINGS } from '@engram/contracts/learning';

export interface SessionItem {
  id: string;
  cardId: string;
  front: string;
  back: string;
}

export interface Review {
  id: string;
  rating: RatingName;
  reviewId: string;
  durationMs: number;
}

export interface Transport {
  review(review: Review): Promise<unknown>;
  undo(reviewId: string): Promise<unknown>;
}

export type Counts = Record<RatingName, number>;

export interface SessionSnapshot<T extends SessionItem> {
  current: T | undefined;
  revealed: boolean;
  /** Reviews given so far (undone ones excluded). */
  reviewed: number;
  /** Distinct items reviewed at least once. */
  cardCount: number;
  counts: Counts;
  /** Items still to show, the current one included. */
  remaining: number;
  canUndo: boolean;
  /** Reviews not yet acknowledged by the server. */
  unsent: number;
  done: boolean;
}

interface Step<T> {
  item: T;
  review: Review;
  requeued: boolean;
  /** Settles with whether the server has the review (false: it was refused for good). */
  sent: Promise<boolean>;
}

export interface SessionOptions {
  transport: Transport;
  /** Called when a review or undo could not be delivered for good (a client error, not a network one). */
  onDeliveryError?: (error: unknown) => void;
  newReviewId?: () => string;
  now?: () => number;
  /** Waits between delivery attempts; tests pass a faster one. */
  retryDelayMs?: (attempt: number) => number;
}

/** Retries network failures and server errors with growing delays; a 4xx answer will not change. */
function isPermanent(error: unknown): boolean {
  const candidate = error as { data?: { httpStatus?: unknown }; status?: unknown } | null;
  const status = candidate?.data?.httpStatus ?? candidate?.status;
  return typeof status === 'number' && status >= 400 && status < 500 && status !== 408 && status !== 429;
}

const defaultDelay = (attempt: number) => Math.min(1_000 * 2 ** attempt, 30_000);

export class PracticeSession<T extends SessionItem> {
  private queue: T[];
  private position = 0;
  private revealedAt: number | undefined;
  private shownAt: number;
  private readonly history: Step<T>[] = [];
  private delivery: Promise<boolean> = Promise.resolve(true);
  private unsent = 0;
  private readonly listeners = new Set<() => void>();
  private snapshotCache: SessionSnapshot<T> | undefined;
  private readonly options: Required<Omit<SessionOptions, 'onDeliveryError'>> & Pick<SessionOptions, 'onDeliveryError'>;

  constructor(items: T[], options: SessionOptions) {
    this.queue = [...items];
    this.options = {
      newReviewId: () => crypto.randomUUID(),
      now: () => Date.now(),
      retryDelayMs: defaultDelay,
      ...options,
    };
    this.shownAt = this.options.now();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  snapshot = (): SessionSnapshot<T> => {
    if (this.snapshotCache) return this.snapshotCache;
    const counts = Object.fromEntries(RATINGS.map((r) => [r, 0])) as Counts;
    for (const step of this.history) counts[step.review.rating] += 1;
    this.snapshotCache = {
      current: this.queue[this.position],
      revealed: this.revealedAt !== undefined,
      reviewed: this.history.length,
      cardCount: new Set(this.history.map((step) => step.item.id)).size,
      counts,
      remaining: this.queue.length - this.position,
      canUndo: this.history.length > 0,
      unsent: this.unsent,
      done: this.position >= this.queue.length,
    };
    return this.snapshotCache;
  };

  reveal(): void {
    if (this.snapshot().done || this.revealedAt !== undefined) return;
    this.revealedAt = this.options.now();
    this.changed();
  }

  rate(rating: RatingName): void {
    const item = this.queue[this.position];
    if (!item || this.revealedAt === undefined) return;
    const review: Review = {
      id: item.id,
      rating,
      reviewId: this.options.newReviewId(),
      durationMs: Math.max(0, this.options.now() - this.shownAt),
    };
    const requeued = rating === 'again';
    if (requeued) this.queue.push(item);
    this.position += 1;
    const sent = this.deliver(() => this.options.transport.review(review));
    this.history.push({ item, review, requeued, sent });
    this.show();
  }

  /** Takes back the last rating: its card is shown again, and the server is told once it has the review. */
  undo(): void {
    const step = this.history.pop();
    if (!step) return;
    if (step.requeued) this.queue.splice(this.queue.lastIndexOf(step.item), 1);
    this.position -= 1;
    this.queue[this.position] = step.item;
    // Deliveries go one after another, so this runs after the review itself: the server can only undo a
    // review it has, and one it refused needs no undo.
    void this.deliver(async () => {
      if (await step.sent) await this.options.transport.undo(step.review.reviewId);
    });
    this.show();
  }

  /** Resolves when every review and undo so far has reached the server (or was given up on). */
  async settled(): Promise<void> {
    await this.delivery;
  }

  private show(): void {
    this.revealedAt = undefined;
    this.shownAt = this.options.now();
    this.changed();
  }

  /** Queues one request behind the others, retrying it until it is delivered or refused for good. */
  private deliver(send: () => Promise<unknown>): Promise<boolean> {
    this.unsent += 1;
    const attempt = async () => {
      for (let tries = 0; ; tries += 1) {
        try {
          await send();
          return true;
        } catch (error) {
          if (isPermanent(error)) {
            this.options.onDeliveryError?.(error);
            return false;
          }
          await new Promise((resolve) => setTimeout(resolve, this.options.retryDelayMs(tries)));
        }
      }
    };
    const done = this.delivery.then(attempt).finally(() => {
      this.unsent -= 1;
      this.changed();
    });
    this.delivery = done;
    return done;
  }

  private changed(): void {
    this.snapshotCache = undefined;
    for (const listener of this.listeners) listener();
  }
}
