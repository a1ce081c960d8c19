// A wait in a test that times out says what the services under test logged last, so a failure on a loaded
// machine carries its own explanation (a relay that could not publish, a consumer that could not start again).
import { createLogger } from '@engram/kit/logger';
import { describe, expect, it } from 'vitest';
import { keepLastLines, lastServiceLines } from '../../src/service-lines.ts';
import { waitUntil } from '../../src/wait.ts';

const flushed = () => new Promise((resolve) => setImmediate(resolve));

describe('a wait that times out', () => {
  it("names what it awaited and each running service's last warnings, and nothing of a stopped one", async () => {
    const relay = keepLastLines('relay-under-test');
    const quiet = keepLastLines('quiet-under-test');
    const stopped = keepLastLines('stopped-under-test');
    const logger = createLogger({ service: 'relay-under-test', level: 'warn', destination: relay.destination });
    logger.info('published');
    for (let i = 1; i <= 45; i++) logger.warn({ attempt: i }, 'outbox relay could not publish; will retry');
    createLogger({ service: 'stopped-under-test', destination: stopped.destination }).warn('from a stopped service');
    stopped.forget();
    await flushed();

    const failure = await waitUntil('the card is published', () => false, 100).catch((error: Error) => error);
    relay.forget();
    quiet.forget();

    const message = (failure as Error).message;
    expect(message).toMatch(
      /^timed out after 100 ms waiting until the card is published\nrelay-under-test said last:\n/,
    );
    // The last 40 lines, oldest first: attempts 6 to 45.
    expect(message).toContain('"attempt":45');
    expect(message).toContain('"attempt":6,');
    expect(message).not.toContain('"attempt":5,');
    expect(message).not.toContain('published"');
    expect(message).not.toContain('quiet-under-test');
    expect(message).not.toContain('from a stopped service');
    expect(lastServiceLines()).toBe('');
  });
});
