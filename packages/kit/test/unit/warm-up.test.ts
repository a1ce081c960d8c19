// A new replica warms up (opens its database connections) before it serves, but a warm-up only saves time: one that
// fails or hangs is logged, and the service starts anyway.
import { describe, expect, it } from 'vitest';
import type { Logger } from '../../src/logger.ts';
import { warmUp } from '../../src/service.ts';

function recordingLogger() {
  const warnings: string[] = [];
  return {
    warnings,
    logger: { warn: (_fields: unknown, message: string) => warnings.push(message) } as unknown as Logger,
  };
}

describe("a service's warm-up", () => {
  it('holds the start back until the warm-up is done', async () => {
    const { warnings, logger } = recordingLogger();
    let done = false;
    const outcome = await warmUp(async () => {
      await new Promise((resolve) => setImmediate(resolve));
      done = true;
    }, logger);
    expect({ outcome, done, warnings }).toEqual({ outcome: 'warm', done: true, warnings: [] });
  });

  it('starts without it when it fails, and says so', async () => {
    const { warnings, logger } = recordingLogger();
    const outcome = await warmUp(() => Promise.reject(new Error('the database is away')), logger);
    expect({ outcome, warnings }).toEqual({ outcome: 'failed', warnings: ['warm-up failed; starting without it'] });
  });

  it('starts without it when it never finishes, and says so', async () => {
    const { warnings, logger } = recordingLogger();
    const outcome = await warmUp(() => new Promise(() => {}), logger, 20);
    expect({ outcome, warnings }).toEqual({
      outcome: 'timed out',
      warnings: ['warm-up took too long; starting without it'],
    });
  });
});
