// What a card asks and answers in each review direction. A basic card has one direction, a reversed card
// two (front → back and back → front), and a cloze card one per deletion number: `{{c1::Paris}}` or
// with a hint `{{c1::Paris::capital}}`. Each direction is a review item with its own FSRS state.
import type { CardType } from '@engram/contracts/learning';

const CLOZE = /\{\{c(\d{1,3})::([\s\S]*?)(?:::([\s\S]*?))?\}\}/g;
export const MAX_CLOZE_DELETIONS = 50;

/** The distinct deletion numbers of a cloze text, ascending. */
export function clozeNumbers(text: string): number[] {
  const numbers = new Set<number>();
  for (const match of text.matchAll(CLOZE)) {
    const n = Number(match[1]);
    if (n > 0) numbers.add(n);
  }
  return [...numbers].sort((a, b) => a - b);
}

/** Why a card's content cannot be stored, or undefined when it can. */
export function contentProblem(type: CardType, front: string): string | undefined {
  if (type !== 'cloze') return undefined;
  const numbers = clozeNumbers(front);
  if (numbers.length === 0) return 'A cloze card needs at least one deletion, like {{c1::answer}}.';
  if (numbers.length > MAX_CLOZE_DELETIONS) return `A cloze card can have at most ${MAX_CLOZE_DELETIONS} deletions.`;
  return undefined;
}

/** The ordinals of a card's review items: 0 (and 1 when reversed) or its cloze numbers. */
export function reviewOrdinals(type: CardType, front: string): number[] {
  if (type === 'basic') return [0];
  if (type === 'reversed') return [0, 1];
  return clozeNumbers(front);
}

/** The prompt and the answer of one review item, in Markdown. */
export function renderItem(type: CardType, ordinal: number, front: string, back: string) {
  if (type === 'reversed' && ordinal === 1) return { prompt: back, answer: front };
  if (type !== 'cloze') return { prompt: front, answer: back };
  const prompt = front.replace(CLOZE, (_all, n: string, text: string, hint?: string) =>
    Number(n) === ordinal ? `[${hint?.trim() || '…'}]` : text,
  );
  const revealed = front.replace(CLOZE, (_all, n: string, text: string) =>
    Number(n) === ordinal ? `**${text}**` : text,
  );
  return { prompt, answer: back.trim() ? `${revealed}\n\n---\n\n${back}` : revealed };
}
