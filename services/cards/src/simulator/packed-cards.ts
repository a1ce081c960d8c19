// A learner's cards as the simulator's child process is handed them: one line per card, written by PostgreSQL
// (learner-workload.ts) and read in the child, so that a collection of 10,000 cards costs the service that reads
// it one string, not 10,000 rows to parse, keep and copy while other learners wait on its event loop.
import type { SimulatedCard } from './simulate.js';

/**
 * A line per card: `state stability difficulty dueDay lastDay`, numbers as PostgreSQL prints them, days counted
 * from today; `lastDay` is left out when the card was never reviewed.
 */
export type PackedCards = string;

/** The SQL expression of one card's line (concat_ws leaves out a null last day), over columns named as here. */
export const PACKED_CARD_LINE = `concat_ws(' ', state, stability, difficulty, due_day, last_day)`;

/** How many cards `packed` holds, counting its lines without copying them (10,000 cards are one string). */
export function countPackedCards(packed: PackedCards): number {
  if (packed === '') return 0;
  let lines = 1;
  for (let at = packed.indexOf('\n'); at !== -1; at = packed.indexOf('\n', at + 1)) lines += 1;
  return lines;
}

/** The cards of `packed`; a card never reviewed (or without a memory) is new. */
export function unpackCards(packed: PackedCards): SimulatedCard[] {
  if (packed === '') return [];
  return packed.split('\n').map((line) => {
    const [state, stability, difficulty, dueDay, lastDay] = line.split(' ').map(Number) as number[];
    return state === 0 || !(Number(stability) > 0) || lastDay === undefined
      ? { isNew: true }
      : {
          isNew: false,
          stability: stability as number,
          difficulty: difficulty as number,
          lastDay,
          dueDay: dueDay as number,
        };
  });
}

/** `cards` packed as PostgreSQL writes them (a learner's cards made up in tests and benchmarks). */
export function packCards(cards: readonly SimulatedCard[]): PackedCards {
  return cards
    .map((card) => (card.isNew ? '0 0 0 0' : `2 ${card.stability} ${card.difficulty} ${card.dueDay} ${card.lastDay}`))
    .join('\n');
}
