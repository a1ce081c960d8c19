// A gateway stopped with SIGTERM (a rolling update, a scale-down) answers every request that reached it:
// clients keeping connections alive and sending request after request never have a kept-alive connection
// cut under a request; only new connections end up refused once it stops listening (which a load balancer
// that has seen it unready no longer opens). While it serves, it leaves closing an idle connection to the
// client or proxy in front, so that one never sends on a connection the gateway is closing.
import http from 'node:http';
import { setTimeout as pause } from 'node:timers/promises';
import { sharedTestStack } from '@engram/testkit/shared-stack';
import { startSecondGateway } from '@engram/testkit/stack';
import { waitUntil } from '@engram/testkit/wait';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The gateway stopped is a second one beside the worker's shared stack, as a second pod would be; the shared one
// goes on serving the other files.
let gateway: Awaited<ReturnType<typeof startSecondGateway>> | undefined;
/** The stopping gateway, reached from an address of the loopback range no other test sends from: the clients
 * send far more than one address may, and the count they spend is shared with every gateway of the stack. */
let url: string;

beforeAll(async () => {
  // The limit is not what this test is about.
  gateway = await startSecondGateway(await sharedTestStack(), { TRPC_RATE_LIMIT_PER_ADDRESS: '1000000' });
  url = gateway.url.replace('//localhost:', '//127.0.0.2:');
});
afterAll(() => gateway?.stop());

const CLIENTS = 24;

describe('a gateway stopping under load', () => {
  it('answers every request sent on a kept-alive connection while it stops, and then refuses new connections', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
    const answered: number[] = [];
    const cut: string[] = [];
    let refused = 0;
    const send = () =>
      new Promise<void>((resolve) => {
        const request = http.get(`${url}/api/trpc/cards.list`, { agent }, (response) => {
          response.resume();
          response.on('end', () => {
            answered.push(response.statusCode ?? 0);
            resolve();
          });
        });
        request.on('error', (error: NodeJS.ErrnoException) => {
          if (request.reusedSocket) cut.push(error.code ?? error.message);
          else refused += 1;
          resolve();
        });
      });
    // Each client sends its next request as soon as the answer to the last arrived, until a new connection fails.
    const clients = Array.from({ length: CLIENTS }, async () => {
      while (refused === 0) await send();
    });
    await waitUntil('the clients have connections open and busy', () => answered.length >= 10 * CLIENTS);

    const exitCode = await gateway?.stop();
    gateway = undefined;
    await Promise.all(clients);
    agent.destroy();

    expect(exitCode).toBe(0);
    expect(cut).toEqual([]);
    expect(refused).toBeGreaterThan(0);
    expect(new Set(answered)).toEqual(new Set([401]));
  });
});

/** One GET on the agent's connection; its status, the Keep-Alive hint, and whether it went on a kept connection. */
const get = (target: string, agent: http.Agent) =>
  new Promise<{ status: number; keepAlive: string; reused: boolean }>((resolve, reject) => {
    const request = http.get(target, { agent }, (response) => {
      response.resume();
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          keepAlive: String(response.headers['keep-alive']),
          reused: request.reusedSocket,
        }),
      );
    });
    request.on('error', reject);
  });

describe('a gateway serving', () => {
  it('keeps an idle connection longer than a proxy in front does (60 s), so a request sent on it is answered', async () => {
    // Node's http.Agent (Playwright's request context uses one) keeps an idle connection with no limit, ingress-nginx
    // 60 s; the gateway had closed them after Node's 5 s, and a request sent as it did was reset.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const target = `${(await sharedTestStack()).url}/api/trpc/cards.list`;
    try {
      const first = await get(target, agent);
      expect(first).toEqual({ status: 401, keepAlive: 'timeout=65', reused: false });
      // Past Node's default idle time and its 1 s buffer: the time itself is what is tested.
      await pause(6_500);
      expect(await get(target, agent)).toEqual({ status: 401, keepAlive: 'timeout=65', reused: true });
    } finally {
      agent.destroy();
    }
  });
});
