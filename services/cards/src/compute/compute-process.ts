// The process one piece of a learner's long CPU work runs in (docs/architecture.md#bulkheads): a workload
// simulation, a retention recommendation, a rescheduling plan. Started by compute-pool.ts with the inputs its
// handler read, it computes (no I/O), answers and ends; its memory and time are capped, and it is ended when the
// learner's call is given up, so one learner's forecast never holds up another learner's review.
import { answerParent } from '@engram/kit/sandbox/answer-parent';
import { planReschedule, type RescheduleInput, type ReschedulePlan } from '../presets/reschedule.js';
import {
  type Recommendation,
  recommendRetention,
  type Simulation,
  type SimulationInput,
  simulateRuns,
} from '../simulator/simulate.js';

type Workload = Omit<SimulationInput, 'desiredRetention'>;

/** Each task: what it is given, and what it answers. */
export interface ComputeTasks {
  simulate: { given: { input: Workload; retentions: number[] }; answer: Simulation[] };
  recommend: { given: { input: Workload; currentRetention: number }; answer: Recommendation };
  reschedule: { given: RescheduleInput; answer: ReschedulePlan };
}

export type ComputeTask = keyof ComputeTasks;
export type ComputeRequest = { [T in ComputeTask]: { task: T; given: ComputeTasks[T]['given'] } }[ComputeTask];

function compute(request: ComputeRequest): ComputeTasks[ComputeTask]['answer'] {
  switch (request.task) {
    case 'simulate':
      return simulateRuns(request.given.input, request.given.retentions);
    case 'recommend':
      return recommendRetention(request.given.input, request.given.currentRetention);
    case 'reschedule':
      return planReschedule(request.given);
  }
}

answerParent<ComputeRequest, ComputeTasks[ComputeTask]['answer']>(async (request) => compute(request));
