// What a card asks and answers in each review direction. A basic card has one direction, a reversed card
// two (front → back and back → front), and a cloze card one per deletion number: `{{c1::Paris}}` or
// with a hint `{{c1::Paris::capital}}`. Each direction is a review item with its own FSRS state. How a
// deletion is hidden and revealed lives in @engram/contracts/cloze, shared with the web app's renderer.
import { clozeNumbers, MAX_CLOZE_DELETIONS } from '@engram/contracts/cloze';
import type { CardType } from '@engram/contracts/learning';

/** Why a card's content cannot be stored, or undefined when it can. */
export function contentProblem(type: CardType, front: string): string | undefined {
  if (type !== 'cloze') return undefined;
  const numbers = clozeNumbers(front);
  if (numbers.length === 0) return 'A cloze card needs at least one deletion, like {{c1::answer}}.';
  if (numbers.length > MAX_CLOZE_DELETIONS) return `A cloze card can have at most ${MAX_CLOZE_DELETIONS} deletions.`;
  return undefined;
}
