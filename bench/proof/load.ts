// The proof's load: learners reviewing (each review with its own client review id, sent again with the
// same id when an attempt fails, as the web app does), opening the practice queue and the dashboard, and
// signing in, offered at a steady pace whatever the answers, until a scenario says stop. Every HTTP
// request is counted, every failed one too, and each review sent is kept for the check, with whether the app
// acknowledged it and how long it took.
import { randomUUID } from 'node:crypto';
import { RATINGS } from '@engram/contracts/learning';
import { TEST_PASSWORD } from '@engram/testkit/stack';
import { request } from '../bench-stack.ts';
import { DASHBOARD, DASHBOARD_INPUT } from '../dashboard-load.ts';
import type { Operation } from '../measure.ts';
import type { Learner } from './learners.ts';

/** A review sent (once or more, with one review id), and whether the app acknowledged it. */
export interface SentReview {
  reviewId: string;
  userId: string;
  itemId: string;
  /** A review of a deck copy: organizations must count it. */
  copy: boolean;
  acknowledged: boolean;
}

export interface LoadResult {
  requests: number;
  failures: number;
  operations: Operation[];
  /** The reviews' own latencies (each from when it was due to its last answer). */
  reviewLatencies: ReviewLatency[];
  reviews: SentReview[];
  /** What the failed requests answered (status and the start of the body, or the network error), counted. */
  failureReasons: Map<string, number>;
  /** When each failed request was answered (ms since the epoch), to set beside what the fault did then. */
  failedAt: number[];
  /** With `quiet` asked for: whether it was quiet again before the cap. */
  quiet?: boolean;
}

/** A review's latency from when it was due, and from when it was first sent (a learner running late waits first). */
export interface ReviewLatency extends Operation {
  sentMs: number;
}

/** Run on, once the row is over, until `settled` says it is quiet again (or the cap has passed). */
export interface Quiet {
  settled: (reviews: ReviewLatency[]) => Promise<boolean>;
  capMs: number;
}

const ATTEMPTS = 6;
/** How long a learner waits for an answer before giving up on an attempt (the gateway's deadlines are 3 s). */
export const ATTEMPT_TIMEOUT_MS = 10_000;
// What a client waits between attempts: long enough to outlast a restart, short enough to notice it.
const RETRY_DELAY_MS = 250;

type Attempt = () => Promise<{ ok: boolean; reason: string }>;

export class LearnerLoad {
  readonly url: string;
  readonly learners: Learner[];
  // Each learner's next review: their own cards and their deck copies in turn.
  #next: number[];

  constructor(url: string, learners: Learner[]) {
    this.url = url;
    this.learners = learners;
    this.#next = learners.map(() => 0);
  }

  /**
   * Offers `perSecond` operations, each learner taking its turn, until `until` has settled and at least
   * `minMs` have passed (and, with `quiet`, it is quiet again or its cap has passed).
   * A latency counts from when its operation was due.
   */
  async run(perSecond: number, until: Promise<unknown>, minMs: number, quiet?: Quiet): Promise<LoadResult> {
    const result: LoadResult = {
      requests: 0,
      failures: 0,
      operations: [],
      reviewLatencies: [],
      reviews: [],
      failureReasons: new Map(),
      failedAt: [],
    };
    let done = false;
    const minimum = new Promise((resolve) => setTimeout(resolve, minMs));
    void Promise.allSettled([until, minimum])
      .then(async () => {
        if (!quiet) return;
        const cap = performance.now() + quiet.capMs;
        result.quiet = await quiet.settled(result.reviewLatencies);
        while (!result.quiet && performance.now() < cap) {
          await new Promise((resolve) => setTimeout(resolve, 250));
          result.quiet = await quiet.settled(result.reviewLatencies);
        }
      })
      .catch(() => {
        result.quiet = false;
      })
      .finally(() => {
        done = true;
      });
    const started = performance.now();
    const interval = 1000 / perSecond;
    const clients = this.learners.length;
    await Promise.all(
      this.learners.map(async (_, client) => {
        for (let i = client; !done; i += clients) {
          const due = started + i * interval;
          const wait = due - performance.now();
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
          if (done) break;
          const sentAt = performance.now();
          const sent = Math.min(due, sentAt);
          const review = await this.#operation(client, i, result);
          const operation = { at: performance.timeOrigin + sent, ms: performance.now() - sent };
          result.operations.push(operation);
          if (review) result.reviewLatencies.push({ ...operation, sentMs: performance.now() - sentAt });
        }
      }),
    );
    return result;
  }

  /** One operation of the learner's; true when it was a review. */
  async #operation(client: number, i: number, result: LoadResult): Promise<boolean> {
    const learner = this.learners[client] as Learner;
    const kind = i % 20;
    if (kind < 13) {
      await this.#review(learner, client, i, result);
      return true;
    }
    if (kind < 16) await this.#attempts(result, () => this.#trpc(learner.cookie, 'cards.listDue'));
    else if (kind < 19) await this.#attempts(result, () => this.#dashboard(learner.cookie));
    else await this.#attempts(result, () => this.#signIn(learner.email));
    return false;
  }

  async #review(learner: Learner, client: number, i: number, result: LoadResult): Promise<void> {
    const turn = this.#next[client] ?? 0;
    this.#next[client] = turn + 1;
    const copy = turn % 2 === 1;
    const items = copy ? learner.copyItems : learner.ownItems;
    const itemId = items[Math.floor(turn / 2) % items.length] as string;
    const input = { id: itemId, rating: RATINGS[i % 4], reviewId: randomUUID(), durationMs: 2500 };
    const acknowledged = await this.#attempts(result, () => this.#trpc(learner.cookie, 'cards.review', input));
    result.reviews.push({ reviewId: input.reviewId, userId: learner.userId, itemId, copy, acknowledged });
  }

  /** Sends an operation until it succeeds or its attempts run out; true when it succeeded. */
  async #attempts(result: LoadResult, attempt: Attempt): Promise<boolean> {
    for (let n = 1; n <= ATTEMPTS; n += 1) {
      result.requests += 1;
      const { ok, reason } = await attempt().catch((error: Error) => ({ ok: false, reason: error.message }));
      if (ok) return true;
      result.failures += 1;
      result.failureReasons.set(reason, (result.failureReasons.get(reason) ?? 0) + 1);
      result.failedAt.push(performance.timeOrigin + performance.now());
      if (n < ATTEMPTS) await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS * n));
    }
    return false;
  }

  #headers(cookie: string) {
    return { 'content-type': 'application/json', origin: this.url, cookie };
  }

  async #trpc(cookie: string, path: string, input?: unknown) {
    const post = input !== undefined;
    const { status, text } = await request(
      `${this.url}/api/trpc/${path}`,
      post ? 'POST' : 'GET',
      this.#headers(cookie),
      post ? JSON.stringify(input) : undefined,
      ATTEMPT_TIMEOUT_MS,
    );
    return { ok: status === 200, reason: `${path} ${status} ${text.slice(0, 120)}` };
  }

  async #dashboard(cookie: string) {
    const query = `?batch=1&input=${encodeURIComponent(JSON.stringify(DASHBOARD_INPUT))}`;
    const { status, text } = await request(
      `${this.url}/api/trpc/${DASHBOARD.join(',')}${query}`,
      'GET',
      this.#headers(cookie),
      undefined,
      ATTEMPT_TIMEOUT_MS,
    );
    let failed: string[] = [];
    try {
      const answers = JSON.parse(text) as { result?: unknown; error?: { data?: { code?: string } } }[];
      failed = answers.flatMap((answer, i) => (answer.result ? [] : [`${DASHBOARD[i]} ${answer.error?.data?.code}`]));
    } catch {
      failed = ['(no batch)'];
    }
    const ok = status === 200 && failed.length === 0;
    return { ok, reason: `dashboard ${status}: ${failed.join(', ') || text.slice(0, 120)}` };
  }

  async #signIn(email: string) {
    const { status, text } = await request(
      `${this.url}/api/auth/sign-in/email`,
      'POST',
      { 'content-type': 'application/json', origin: this.url },
      JSON.stringify({ email, password: TEST_PASSWORD }),
      ATTEMPT_TIMEOUT_MS,
    );
    return { ok: status === 200, reason: `sign-in ${status} ${text.slice(0, 120)}` };
  }
}
