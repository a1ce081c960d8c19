// What makes a generated card acceptable: a known type, sides within bounds, a cloze the cards service
// would take (the rule of @engram/contracts/cloze), a source quote kept (trimmed to its bound), tags
// cleaned; and no two cards asking the same thing, nor a card the learner already has. Pure: the generators' raw output comes in, proposals or a reason go out.
import {
  GENERATED_BACK_MAX_LENGTH,
  GENERATED_CARD_TYPES,
  GENERATED_FRONT_MAX_LENGTH,
  GENERATED_TAGS_MAX,
  SOURCE_QUOTE_MAX_LENGTH,
} from '@engram/contracts/ai';
import { CARD_CONTENT_PROBLEMS, cardContentProblem, clozePlainText } from '@engram/contracts/cloze';
import { type CardType, TAG_NAME_MAX_LENGTH } from '@engram/contracts/learning';
import { z } from 'zod';

export interface Proposal {
  type: CardType;
  front: string;
  back: string;
  tags: string[];
  sourceQuote: string;
}

const FRONT_MIN_LENGTH = 3;

const rawCard = z.object({
  type: z.enum(GENERATED_CARD_TYPES),
  front: z.string().trim().min(FRONT_MIN_LENGTH).max(GENERATED_FRONT_MAX_LENGTH),
  back: z.string().trim().max(GENERATED_BACK_MAX_LENGTH).default(''),
  tags: z.array(z.string()).default([]),
  sourceQuote: z.string().trim().min(1),
});

const squeeze = (text: string) => text.replace(/\s+/g, ' ').trim();

function cleanTag(tag: string): string {
  return squeeze(tag.replace(/^#/, '')).toLowerCase().slice(0, TAG_NAME_MAX_LENGTH);
}

function shorten(text: string, max: number): string {
  const squeezed = squeeze(text);
  return squeezed.length <= max ? squeezed : `${squeezed.slice(0, max - 1).trimEnd()}…`;
}

/** A model's card (any shape) as a proposal, or why it is not one. */
export function acceptCard(raw: unknown, allowed: readonly CardType[]): Proposal | { rejected: string } {
  const source = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const parsed = rawCard.safeParse({ ...source, sourceQuote: source.sourceQuote ?? source.source_quote });
  if (!parsed.success) return { rejected: 'malformed' };
  const card = parsed.data;
  if (!allowed.includes(card.type)) return { rejected: 'type not asked for' };
  const problem = cardContentProblem(card.type, card.front);
  if (problem) return { rejected: CARD_CONTENT_PROBLEMS[problem] };
  if (card.type !== 'cloze' && card.back.length === 0) return { rejected: 'no answer' };
  if (card.type !== 'cloze' && sameQuestion(card.front, card.back)) return { rejected: 'answer repeats the question' };
  const tags = [...new Set(card.tags.map(cleanTag).filter((tag) => tag.length > 0))].slice(0, GENERATED_TAGS_MAX);
  return {
    type: card.type,
    front: card.front,
    back: card.back,
    tags,
    sourceQuote: shorten(card.sourceQuote, SOURCE_QUOTE_MAX_LENGTH),
  };
}

/** What a card asks, reduced so that wording noise (case, punctuation, cloze markup) does not matter. */
export function questionKey(front: string): string {
  return clozePlainText(front)
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

function sameQuestion(a: string, b: string): boolean {
  return questionKey(a) === questionKey(b);
}

/** Remembers the questions already asked (the learner's cards, then each accepted proposal). */
export class QuestionSet {
  readonly #keys = new Set<string>();
  constructor(fronts: Iterable<string> = []) {
    for (const front of fronts) this.#keys.add(questionKey(front));
  }
  /** True, and remembered, when `front` asks something new. */
  admit(front: string): boolean {
    const key = questionKey(front);
    if (key.length === 0 || this.#keys.has(key)) return false;
    this.#keys.add(key);
    return true;
  }
}
