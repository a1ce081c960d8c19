// Periodic clean-ups, one mechanism for every service: expired uploads (ai), card files no row wants any more
// (cards), and the outbox, processed events and retained records (every service's events). Each replica runs a
// clean-up's turn at once and then every `everyMs`; a turn is idempotent and takes the clean-up's advisory lock,
// so replicas take turns without meeting. A failed turn is logged and the next one tries again; stop() waits for
// a turn under way.
//
// Not on the work queue (work-queue.ts), on purpose: a job there is the doorbell of one row, delivered to one
// replica and tried again until done. A clean-up has no row and may run twice, and the outbox's must run in
// services without a job queue (identity, organizations) and while NATS is down, which is when the outbox grows.
import { createWakeSignal } from '../events/wake-signal.js';
import type { Logger } from '../logger.js';

export interface PeriodicCleanup {
  /** What a turn does, as the log says it: "remove expired uploads". */
  does: string;
  everyMs: number;
  /** One turn; the counts it returns are logged when one of them is above 0. */
  turn: () => Promise<Record<string, number>>;
}

export interface RunningCleanup {
  stop(): Promise<void>;
}

export function startCleanup(cleanup: PeriodicCleanup, logger: Logger): RunningCleanup {
  const signal = createWakeSignal();
  let stopped = false;
  async function run() {
    while (!stopped) {
      try {
        const counts = await cleanup.turn();
        if (Object.values(counts).some((count) => count > 0)) logger.info(counts, `${cleanup.does}: done`);
      } catch (error) {
        logger.warn({ err: error }, `could not ${cleanup.does}; trying again at the next turn`);
      }
      await signal.pause(cleanup.everyMs, false);
    }
  }
  const running = run();
  return {
    async stop() {
      stopped = true;
      signal.close();
      await running;
    },
  };
}
