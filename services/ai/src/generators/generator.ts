// The interface both generators implement (Bedrock and the offline one): given notes and options, they
// yield raw cards as they are produced, then what the generation cost. Validation and deduplication
// happen after them (domain/proposals.ts), the same for both.
import type { GeneratorName } from '@engram/contracts/ai';
import type { CardType } from '@engram/contracts/learning';

export interface GenerationRequest {
  notes: string;
  count: number;
  types: CardType[];
  /** A BCP 47 tag; undefined means the notes' own language. */
  language: string | undefined;
  focus: string | undefined;
  /** When the caller stops waiting: retries end before it. */
  deadline: Date;
}

export type GeneratorEvent =
  | { kind: 'card'; card: unknown }
  | { kind: 'usage'; inputTokens: number; outputTokens: number; latencyMs: number };

/** A picture to propose an occlusion card's shapes over. */
export interface ShapeRequest {
  picture: Uint8Array;
  format: 'jpeg' | 'png' | 'webp';
  /** A BCP 47 tag for the labels; undefined means the picture's own language. */
  language: string | undefined;
  deadline: Date;
  /** The regions of the picture that look like its labels, found in a reader process (the offline generator's). */
  regions: () => Promise<{ left: number; top: number; width: number; height: number }[]>;
}

/** The raw shapes proposed (checked after, as cards are) and what the proposal cost. */
export interface ShapeAnswer {
  shapes: unknown[];
  usage: { inputTokens: number; outputTokens: number; latencyMs: number };
}

export interface CardGenerator {
  readonly name: GeneratorName;
  readonly model: string;
  generate(request: GenerationRequest, signal: AbortSignal): AsyncIterable<GeneratorEvent>;
  proposeShapes(request: ShapeRequest, signal: AbortSignal): Promise<ShapeAnswer>;
}

/** The model could not be reached or broke off; `retryable` when trying again may work (throttled, timed out). */
export class GeneratorFailure extends Error {
  override name = 'GeneratorFailure';
  readonly retryable: boolean;
  constructor(message: string, retryable: boolean, options?: ErrorOptions) {
    super(message, options);
    this.retryable = retryable;
  }
}
