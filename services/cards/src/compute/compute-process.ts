// The process one piece of a learner's long CPU work or untrusted file runs in (docs/architecture.md#bulkheads): a
// workload simulation, a retention recommendation, a rescheduling plan, or an uploaded card file checked and
// re-encoded (sharp, music-metadata). Started by compute-pool.ts with the inputs its handler read, it computes (no
// I/O), answers and ends; its memory and time are capped, and it is ended when the learner's call is given up, so
// one learner's forecast or file never holds up another learner's review.
import { DomainError } from '@engram/kit/errors';
import { answerParent } from '@engram/kit/sandbox/answer-parent';
import type { KeptFile } from '../media/keep-file.js';
import { planReschedule, type RescheduleInput, type ReschedulePlan } from '../presets/reschedule.js';
import type { PackedWorkload } from '../simulator/learner-workload.js';
import { unpackCards } from '../simulator/packed-cards.js';
import { type Recommendation, recommendRetention, type Simulation, simulateRuns } from '../simulator/simulate.js';

/** The learner's cards, handed over packed, read here rather than in the service (packed-cards.ts). */
const unpacked = (input: PackedWorkload) => ({ ...input, cards: unpackCards(input.cards) });

/** Each task: what it is given, and what it answers. */
export interface ComputeTasks {
  simulate: { given: { input: PackedWorkload; retentions: number[] }; answer: Simulation[] };
  recommend: { given: { input: PackedWorkload; currentRetention: number }; answer: Recommendation };
  reschedule: { given: RescheduleInput; answer: ReschedulePlan };
  'keep-file': { given: { bytes: Uint8Array; claimedType: string }; answer: KeptFileAnswer };
}

/** A kept file, or why it was refused (keepFile's refusal, in the learner's words, with its reason). */
export type KeptFileAnswer = { kept: KeptFile } | { refused: { message: string; reason: string | undefined } };

async function keep(bytes: Uint8Array, claimedType: string): Promise<KeptFileAnswer> {
  // Loaded only by a child that checks a file: a forecast's child starts without sharp and music-metadata.
  const { keepFile } = await import('../media/keep-file.js');
  try {
    return { kept: await keepFile(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), claimedType) };
  } catch (error) {
    if (error instanceof DomainError) return { refused: { message: error.message, reason: error.reason } };
    throw error;
  }
}

export type ComputeTask = keyof ComputeTasks;
export type ComputeRequest = { [T in ComputeTask]: { task: T; given: ComputeTasks[T]['given'] } }[ComputeTask];

function compute(request: ComputeRequest): ComputeTasks[ComputeTask]['answer'] | Promise<KeptFileAnswer> {
  switch (request.task) {
    case 'keep-file':
      return keep(request.given.bytes, request.given.claimedType);
    case 'simulate':
      return simulateRuns(unpacked(request.given.input), request.given.retentions);
    case 'recommend':
      return recommendRetention(unpacked(request.given.input), request.given.currentRetention);
    case 'reschedule':
      return planReschedule(request.given);
  }
}

answerParent<ComputeRequest, ComputeTasks[ComputeTask]['answer']>(async (request) => compute(request));
