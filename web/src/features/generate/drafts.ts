// The Generate screen's state, pure: drafts made from streamed proposals, how the generation began and
// ended, and a draft's tags as clean names.
import { type CardType, TAG_NAME_MAX_LENGTH } from '@engram/contracts/learning';
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

export const tagNamesOf = (draft: Draft) => [
  ...new Set(
    draft.tags
      .split(',')
      .map((name) => name.trim().slice(0, TAG_NAME_MAX_LENGTH))
      .filter((name) => name.length > 0),
  ),
];
