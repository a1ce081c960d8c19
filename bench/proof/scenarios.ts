// The proof's scenarios, one after another on one running stack: the load alone, then each fault under
// load, then each hostile learner under load (hostile/). Each names what it promises: no request fails (the
// load alone, a rolling restart, which drains before each exit, and every hostile learner's row, whose other
// learners must not notice them), or only that nothing acknowledged is lost or duplicated (a process killed, a
// server restarted or gone: requests may fail meanwhile, and are sent again with the same review id).
import type { ComponentName } from '@engram/local/components';
import { LATE_SYNC } from './hostile/late-sync.ts';
import type { HostileLearner } from './hostile/learner.ts';
import { OPTIMIZATION } from './hostile/optimization.ts';
import { POISONED_PACKAGE } from './hostile/poisoned-package.ts';
import { SIMULATIONS } from './hostile/simulations.ts';
import type { ProofInfrastructure } from './infra.ts';
import type { ProofStack, Replica } from './stack.ts';

export type Promised = 'no failed request' | 'nothing lost or duplicated';

export interface Scenario {
  name: string;
  promise: Promised;
  /** Also promised: every request is answered (if only with an error) before the load's own timeout. */
  answersWithinDeadlines?: boolean;
  /** The processes its fault kills on purpose: one restart of each is the fault's, not a surprise. */
  kills?: ComponentName[];
  /** The most the other learners' review p99 may be over their idle p99; a fault's is only shown. */
  slowdownBound?: number;
  /** Injects the fault and resolves once the system has recovered from it; none for the load alone. */
  fault?: (stack: ProofStack, infrastructure: ProofInfrastructure) => Promise<void>;
  hostile?: HostileLearner;
}

/** How much slower a hostile learner may make the others' reviews: the issue's bound. */
export const SLOWDOWN_BOUND = 2;

/** How long a scenario's load runs before its fault, so the fault hits a system under load. */
export const LEAD_MS = 1_500;
const REDIS_OUTAGE_MS = 10_000;
const FROZEN_MS = 5_000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** kill -9 of one replica; recovered once the supervisor has it ready again. */
function killed(replica: Replica) {
  return async (stack: ProofStack) => {
    const component = replica.startsWith('gateway') ? 'gateway' : 'cards';
    const restartedBefore = stack.events.filter((e) => e.kind === 'restarted' && e.component === component).length;
    const pid = stack.pid(replica);
    if (pid === undefined) throw new Error(`${replica} is not running`);
    process.kill(pid, 'SIGKILL');
    while (stack.events.filter((e) => e.kind === 'restarted' && e.component === component).length === restartedBefore) {
      if (stack.events.some((e) => e.kind === 'gave-up')) throw new Error(`the supervisor gave up on ${component}`);
      await pause(50);
    }
  };
}

export const SCENARIOS: Scenario[] = [
  { name: 'load', promise: 'no failed request' },
  {
    name: 'kill -9 of a cards replica',
    promise: 'nothing lost or duplicated',
    kills: ['cards'],
    fault: killed('cards-a'),
  },
  {
    name: 'kill -9 of a gateway replica',
    promise: 'nothing lost or duplicated',
    kills: ['gateway'],
    fault: killed('gateway-a'),
  },
  {
    name: 'NATS restarted',
    promise: 'nothing lost or duplicated',
    fault: (_, infrastructure) => infrastructure.restartNats(),
  },
  {
    name: 'PostgreSQL restarted',
    promise: 'nothing lost or duplicated',
    fault: (_, infrastructure) => infrastructure.restartPostgres(),
  },
  {
    name: `Redis gone for ${REDIS_OUTAGE_MS / 1000} s`,
    promise: 'nothing lost or duplicated',
    fault: async (_, infrastructure) => {
      await infrastructure.stopRedis();
      await pause(REDIS_OUTAGE_MS);
      await infrastructure.startRedis();
    },
  },
  {
    name: 'rolling SIGTERM restart of the gateways and cards',
    promise: 'no failed request',
    fault: async (stack) => {
      for (const replica of ['cards-a', 'cards-b', 'gateway-a', 'gateway-b'] as const) await stack.restart(replica);
    },
  },
  {
    // One replica each: while one restarts its calls fail and are sent again, and the events it consumes
    // (organizations' progress) wait in the stream for it.
    name: 'rolling SIGTERM restart of identity, organizations, billing and ai',
    promise: 'nothing lost or duplicated',
    fault: async (stack) => {
      for (const component of ['identity', 'organizations', 'billing', 'ai'] as const) await stack.restart(component);
    },
  },
  {
    name: `cards frozen for ${FROZEN_MS / 1000} s (deadlines fire)`,
    promise: 'nothing lost or duplicated',
    answersWithinDeadlines: true,
    // SIGSTOP of both replicas: they keep their connections and accept calls but answer none, as a service
    // stuck in a long pause would; the callers' deadlines must end those calls (no request may hang), and
    // the retries reach cards again once it goes on.
    fault: async (stack) => {
      const pids = [stack.pid('cards-a'), stack.pid('cards-b')];
      if (pids.includes(undefined)) throw new Error('a cards replica is not running');
      for (const pid of pids) process.kill(pid as number, 'SIGSTOP');
      await pause(FROZEN_MS);
      for (const pid of pids) process.kill(pid as number, 'SIGCONT');
    },
  },
  ...[POISONED_PACKAGE, OPTIMIZATION, SIMULATIONS, LATE_SYNC].map(
    (hostile): Scenario => ({
      name: hostile.name,
      promise: 'no failed request',
      slowdownBound: SLOWDOWN_BOUND,
      hostile,
    }),
  ),
];

/**
 * The scenarios `--only` names (each part a piece of a name), with the load alone first: the faults' idle reference
 * and the baseline's count. A part that names nothing is refused before anything starts.
 */
export function chooseScenarios(only: readonly string[]): { scenarios: Scenario[]; attacks: boolean } {
  const attack = (part: string) => 'attack'.includes(part);
  const unmatched = only.filter((part) => !attack(part) && !SCENARIOS.some((scenario) => scenario.name.includes(part)));
  if (unmatched.length > 0) {
    throw new Error(`--only ${unmatched.map((part) => `'${part}'`).join(', ')} names no scenario (nor 'attack')`);
  }
  if (only.length === 0) return { scenarios: SCENARIOS, attacks: true };
  const chosen = SCENARIOS.filter((scenario) => only.some((part) => scenario.name.includes(part)));
  const scenarios = chosen.length > 0 && chosen[0] !== SCENARIOS[0] ? [SCENARIOS[0] as Scenario, ...chosen] : chosen;
  return { scenarios, attacks: only.some(attack) };
}
