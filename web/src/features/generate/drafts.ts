// The Generate screen's state, pure: drafts made from streamed proposals, how the generation began and
// ended, a draft's tags as clean names, and the state as it is kept across a reload and read back.
import { GENERATE_COUNT_MAX, GENERATED_CARD_TYPES, type GeneratedCardType } from '@engram/contracts/ai';
import { CARD_TYPES, type CardType, TAG_NAME_MAX_LENGTH } from '@engram/contracts/learning';
import type { GenerationEvent } from '@engram/gateway/router';

export type Draft = {
  key: string;
  selected: boolean;
  type: CardType;
  front: string;
  back: string;
  /** Comma-separated tag names, as the learner edits them. */
  tags: string;
  sourceQuote: string;
};

type Started = Extract<GenerationEvent, { type: 'started' }>;
type Finished = Extract<GenerationEvent, { type: 'finished' }>;

export type GenerationState = {
  running: boolean;
  started: Started | undefined;
  finished: Finished | undefined;
  drafts: Draft[];
};

export const IDLE: GenerationState = { running: false, started: undefined, finished: undefined, drafts: [] };

/** The state after one event of the stream: a proposal becomes a selected, editable draft. */
export function applyEvent(state: GenerationState, event: GenerationEvent): GenerationState {
  switch (event.type) {
    case 'started':
      return { ...state, started: event };
    case 'proposal': {
      const { proposal } = event;
      const draft: Draft = {
        key: `${state.started?.generationId ?? 'g'}-${state.drafts.length}`,
        selected: true,
        type: proposal.type as CardType,
        front: proposal.front,
        back: proposal.back,
        tags: proposal.tags.join(', '),
        sourceQuote: proposal.sourceQuote,
      };
      return { ...state, drafts: [...state.drafts, draft] };
    }
    case 'finished':
      return { ...state, finished: event };
  }
}

/** The number of cards asked for, when it is a whole number within the contract's limits (1 to the most). */
export function countOf(text: string): number | undefined {
  const number = text.trim() === '' ? Number.NaN : Number(text);
  return Number.isInteger(number) && number >= 1 && number <= GENERATE_COUNT_MAX ? number : undefined;
}

export const tagNamesOf = (draft: Draft) => [
  ...new Set(
    draft.tags
      .split(',')
      .map((name) => name.trim().slice(0, TAG_NAME_MAX_LENGTH))
      .filter((name) => name.length > 0),
  ),
];

/** The state as stored between visits (entities/generation/draft-store.ts): the proposals, and how their generation went. */
export type StoredGeneration = {
  version: typeof STORED_VERSION;
  started: Started | undefined;
  finished: Finished | undefined;
  drafts: Draft[];
};
const STORED_VERSION = 1;

/** What to store: the drafts and how they came, or null when there is nothing to keep. */
export function toStored(state: GenerationState): StoredGeneration | null {
  if (state.drafts.length === 0) return null;
  return { version: STORED_VERSION, started: state.started, finished: state.finished, drafts: state.drafts };
}

const isText = (value: unknown): value is string => typeof value === 'string';
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function isDraft(value: unknown): value is Draft {
  return (
    isObject(value) &&
    isText(value.key) &&
    typeof value.selected === 'boolean' &&
    CARD_TYPES.includes(value.type as CardType) &&
    isText(value.front) &&
    isText(value.back) &&
    isText(value.tags) &&
    isText(value.sourceQuote)
  );
}

/**
 * The state to resume from what was stored: its drafts (no generation running; one that was under way
 * when the learner left keeps the proposals it had made), or the idle state when nothing usable is there
 * (nothing stored, another version, a hand-edited value).
 */
export function fromStored(stored: unknown): GenerationState {
  if (!isObject(stored) || stored.version !== STORED_VERSION || !Array.isArray(stored.drafts)) return IDLE;
  if (stored.drafts.length === 0 || !stored.drafts.every(isDraft)) return IDLE;
  const started =
    isObject(stored.started) && stored.started.type === 'started' ? (stored.started as Started) : undefined;
  const finished =
    isObject(stored.finished) && stored.finished.type === 'finished' ? (stored.finished as Finished) : undefined;
  return { running: false, started, finished, drafts: stored.drafts };
}

/** The form as kept between visits: the pasted notes and the choices beside them (never a file: its upload expires). */
export type NotesDraft = {
  notes: string;
  count: string;
  types: GeneratedCardType[];
  language: string;
  focus: string;
};

/** What to store of the form, or null when it holds no notes (nothing worth keeping). */
export const toStoredNotes = ({ notes, count, types, language, focus }: NotesDraft) =>
  notes.trim() === '' ? null : { notes, count, types, language, focus };

/** The notes and choices to resume from what was stored; what cannot be read keeps the form's own value. */
export function notesFromStored(stored: unknown): Partial<NotesDraft> {
  if (!isObject(stored) || !isText(stored.notes)) return {};
  const types = Array.isArray(stored.types)
    ? GENERATED_CARD_TYPES.filter((type) => (stored.types as unknown[]).includes(type))
    : [];
  return {
    notes: stored.notes,
    ...(isText(stored.count) && { count: stored.count }),
    ...(types.length > 0 && { types }),
    ...(isText(stored.language) && { language: stored.language }),
    ...(isText(stored.focus) && { focus: stored.focus }),
  };
}
