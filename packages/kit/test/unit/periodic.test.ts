// A periodic clean-up runs at once and then every interval until stopped; a failed turn is logged and the next
// one goes on; what a turn removed is logged only when it removed something; stopping waits for a turn under way.
import { describe, expect, it, vi } from 'vitest';
import { startCleanup } from '../../src/jobs/periodic.ts';
import type { Logger } from '../../src/logger.ts';

function recordingLogger() {
  const lines: { level: string; message: string; fields: unknown }[] = [];
  const at = (level: string) => (fields: unknown, message: string) => lines.push({ level, message, fields });
  return { lines, logger: { info: at('info'), warn: at('warn') } as unknown as Logger };
}

describe('a periodic clean-up', () => {
  it('takes a turn at once and then every interval, logging only turns that removed something', async () => {
    const { lines, logger } = recordingLogger();
    const removed = [0, 2, 0];
    const turn = vi.fn(async () => ({ removed: removed.shift() ?? 0 }));
    const cleanup = startCleanup({ does: 'sweep the test store', everyMs: 10, turn }, logger);
    await vi.waitFor(() => expect(turn.mock.calls.length).toBeGreaterThanOrEqual(3));
    await cleanup.stop();
    expect(lines).toEqual([{ level: 'info', message: 'sweep the test store: done', fields: { removed: 2 } }]);
  });

  it('logs a failed turn and goes on with the next', async () => {
    const { lines, logger } = recordingLogger();
    const turn = vi
      .fn<() => Promise<Record<string, number>>>()
      .mockRejectedValueOnce(new Error('the database is away'))
      .mockResolvedValue({ removed: 1 });
    const cleanup = startCleanup({ does: 'sweep the test store', everyMs: 10, turn }, logger);
    await vi.waitFor(() => expect(lines.some((line) => line.level === 'info')).toBe(true));
    await cleanup.stop();
    expect(lines[0]).toMatchObject({
      level: 'warn',
      message: 'could not sweep the test store; trying again at the next turn',
    });
  });

  it('waits for a turn under way when stopped, and takes no other', async () => {
    const { logger } = recordingLogger();
    let finish: () => void = () => undefined;
    let finished = false;
    const turn = vi.fn(
      () =>
        new Promise<Record<string, number>>((resolve) => {
          finish = () => {
            finished = true;
            resolve({});
          };
        }),
    );
    const cleanup = startCleanup({ does: 'sweep the test store', everyMs: 10, turn }, logger);
    const stopping = cleanup.stop();
    setTimeout(() => finish(), 20);
    await stopping;
    expect(finished).toBe(true);
    expect(turn).toHaveBeenCalledTimes(1);
  });
});
