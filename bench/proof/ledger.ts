// Everything the proof has asked the app to keep so far, checked again after each row: every review the load sent
// (verify.ts compares the learners' whole logs with them) and every account deletion that went through. The
// counts are cumulative; a row is given what was lost or duplicated since the row before.
import type { SentReview } from './load.ts';
import { type Tally, verifyErasures, verifyReviews } from './verify.ts';

export class Ledger {
  readonly #databaseUrl: string;
  readonly #reviews: SentReview[] = [];
  readonly #erased: string[] = [];
  #before = { lost: 0, duplicated: 0 };

  constructor(databaseUrl: string) {
    this.#databaseUrl = databaseUrl;
  }

  record(reviews: SentReview[]): void {
    this.#reviews.push(...reviews);
  }

  erased(userId: string): void {
    this.#erased.push(userId);
  }

  /** Checks everything recorded; answers what was lost or duplicated since the last check, and what it was. */
  async check(): Promise<Tally> {
    const reviews = await verifyReviews(this.#databaseUrl, this.#reviews);
    const erasures = await verifyErasures(this.#databaseUrl, this.#erased);
    const now = { lost: reviews.lost + erasures.lost, duplicated: reviews.duplicated + erasures.duplicated };
    const since = { lost: now.lost - this.#before.lost, duplicated: now.duplicated - this.#before.duplicated };
    this.#before = now;
    return { ...since, details: [...reviews.details, ...erasures.details] };
  }
}
