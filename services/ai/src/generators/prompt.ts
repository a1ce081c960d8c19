// What Bedrock is asked: the instructions, the notes, and the tool whose JSON schema the cards must fit.
import {
  GENERATED_BACK_MAX_LENGTH,
  GENERATED_CARD_TYPES,
  GENERATED_FRONT_MAX_LENGTH,
  GENERATED_TAGS_MAX,
  SOURCE_QUOTE_MAX_LENGTH,
} from '@engram/contracts/ai';
import { clozeDeletion } from '@engram/contracts/cloze';
import type { GenerationRequest } from './generator.js';

export const TOOL_NAME = 'propose_cards';

export const CARDS_SCHEMA = {
  type: 'object',
  properties: {
    cards: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          type: { type: 'string', enum: GENERATED_CARD_TYPES },
          front: { type: 'string', maxLength: GENERATED_FRONT_MAX_LENGTH },
          back: { type: 'string', maxLength: GENERATED_BACK_MAX_LENGTH },
          tags: { type: 'array', items: { type: 'string' }, maxItems: GENERATED_TAGS_MAX },
          sourceQuote: { type: 'string', maxLength: SOURCE_QUOTE_MAX_LENGTH },
        },
        required: ['type', 'front', 'back', 'tags', 'sourceQuote'],
      },
    },
  },
  required: ['cards'],
} as const;

export function systemPrompt(request: GenerationRequest): string {
  return [
    'You write flashcards for spaced repetition from a learner’s notes.',
    `Call the tool ${TOOL_NAME} once, with at most ${request.count} cards, most important first.`,
    'Each card tests one fact stated in the notes; never add facts the notes do not contain.',
    `Card types you may use: ${request.types.join(', ')}.`,
    'basic: a question on the front, its answer on the back. reversed: a term on the front, its meaning on the back (asked both ways).',
    `cloze: a sentence on the front with the key term hidden as ${clozeDeletion(1, 'term')}; the back is empty or a short hint.`,
    `Fronts at most ${GENERATED_FRONT_MAX_LENGTH} characters, backs at most ${GENERATED_BACK_MAX_LENGTH}.`,
    `sourceQuote: the passage of the notes the card comes from, quoted exactly, at most ${SOURCE_QUOTE_MAX_LENGTH} characters.`,
    `tags: up to ${GENERATED_TAGS_MAX} short lowercase topic words.`,
    request.language
      ? `Write the cards in the language ${request.language}.`
      : 'Write the cards in the language of the notes.',
    ...(request.focus ? [`Concentrate on: ${request.focus}`] : []),
  ].join('\n');
}

export function userMessage(request: GenerationRequest): string {
  return `<notes>\n${request.notes}\n</notes>`;
}
