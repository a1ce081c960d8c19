// The session bar's count, in words: what has been answered and what is left, with one answer said as one.
import { m } from '../../lib/i18n';

export function progressWords(done: number, left: number): string {
  return done === 1 ? m.practice_progress_one({ left }) : m.practice_progress({ done, left });
}
