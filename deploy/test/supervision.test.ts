// The runner keeps the stack up as Kubernetes would (deploy/local/src/supervisor.ts), with the built
// dist/ files: a component killed with kill -9 is reported, started again and serves again; one that
// keeps failing makes the runner give up and stop everything instead of leaving the app half up.
import { createServer, type Server } from 'node:net';
import { metricsPortOf } from '@engram/local/components';
import { alive } from '@engram/local/ports';
import { describeEvent } from '@engram/local/supervisor';
import { signUpThroughGateway, startTestStack, type TestStack } from '@engram/testkit/stack';
import { waitUntil } from '@engram/testkit/wait';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let stack: TestStack;
let squatter: Server | undefined;

beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  squatter?.close();
  await stack?.stop();
});

const eventsOf = (component: string, kind: string) =>
  stack.supervision.filter((event) => event.component === component && event.kind === kind);

async function cardsListStatus(cookie: string): Promise<number> {
  const response = await fetch(`${stack.url}/api/trpc/cards.list?input=${encodeURIComponent('{"pageSize":10}')}`, {
    headers: { cookie, origin: stack.url },
    signal: AbortSignal.timeout(5_000),
  });
  await response.body?.cancel();
  return response.status;
}

describe('a component that dies', () => {
  it('is logged with its signal, started again, and the gateway serves its calls again', async () => {
    const cookie = await signUpThroughGateway(stack.url, 'supervised');
    expect(await cardsListStatus(cookie)).toBe(200);
    const killed = stack.pids().cards as number;

    process.kill(killed, 'SIGKILL');

    await waitUntil('the runner reports that cards exited', () => eventsOf('cards', 'exited').length > 0);
    expect(describeEvent(eventsOf('cards', 'exited')[0] ?? never())).toMatch(
      /^cards exited unexpectedly \(signal SIGKILL\); restarting in 0\.5 s/,
    );
    await waitUntil('cards is ready again', () => eventsOf('cards', 'restarted').length > 0, 30_000);
    expect(stack.pids().cards).not.toBe(killed);
    expect(alive(stack.pids().cards as number)).toBe(true);
    await waitUntil('the gateway serves cards.list again', async () => (await cardsListStatus(cookie)) === 200);
  }, 60_000);
});

describe('a component that keeps failing', () => {
  it('makes the runner give up after 5 failures, naming it, and stop every process', async () => {
    const pids = Object.values(stack.pids()) as number[];
    process.kill(stack.pids().organizations as number, 'SIGKILL');
    await waitUntil(
      'the runner reports that organizations exited',
      () => eventsOf('organizations', 'exited').length > 0,
    );
    // Its port taken, each new organizations process fails at start-up until the runner gives up.
    squatter = await occupy(stack.settings.ports.grpc.organizations);

    const reason = await stack.gaveUp;

    expect(reason).toMatch(/^GIVING UP: organizations failed 5 times within 60 s \(last: exit code [1-9]\d*\)/);
    expect(eventsOf('organizations', 'exited').map((event) => event.kind === 'exited' && event.restartInMs)).toEqual([
      500, 1_000, 2_000, 4_000,
    ]);
    expect(eventsOf('organizations', 'restarted')).toEqual([]);
    expect(pids.filter(alive)).toEqual([]);
    await expect(fetch(`http://127.0.0.1:${metricsPortOf('gateway', stack.settings.ports)}/readyz`)).rejects.toThrow();
  }, 90_000);
});

function occupy(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '0.0.0.0', () => resolve(server));
  });
}

function never(): never {
  throw new Error('no event');
}
