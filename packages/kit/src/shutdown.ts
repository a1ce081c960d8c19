// Graceful shutdown: on SIGTERM/SIGINT run the registered steps in order (stop taking work, drain,
// close connections), each bounded, then exit. A second signal exits at once.
import type { Logger } from './logger.js';

type Step = { name: string; run: () => Promise<unknown> | unknown };

export function onShutdown(logger: Logger, steps: Step[], timeoutMs = 25_000): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error('shutdown timed out');
      process.exit(1);
    }, timeoutMs);
    timer.unref();
    let failed = false;
    for (const step of steps) {
      try {
        await step.run();
      } catch (error) {
        failed = true;
        logger.error({ err: error, step: step.name }, 'shutdown step failed');
      }
    }
    logger.info('stopped');
    exitAfterFlush(logger, failed ? 1 : 0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

/** Exits once the logger has written what it holds, so the last lines are not lost or reordered. */
function exitAfterFlush(logger: Logger, code: number): void {
  setTimeout(() => process.exit(code), 1_000).unref();
  logger.flush(() => process.exit(code));
}
