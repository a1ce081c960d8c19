// The gateway's proxy to a service's own HTTP endpoint (identity's /api/auth/*) and the race of a kept-alive
// connection: an upstream closes a connection left idle for its keep-alive timeout, and a request the gateway
// sends on it at that moment is lost ("socket hang up"), so a learner signing in got a 503 for nothing.
// The upstream here makes that moment certain: when its keep-alive timeout fires, it sends the next request
// through the gateway and resets the connection as that request's bytes arrive, as a server that closed the
// connection an instant earlier would.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { proxyTo } from '../../src/http/proxy.ts';

/** Shorter than Node's default 5 s (identity's), to keep the test short; it announces `Keep-Alive: timeout=2`. */
const UPSTREAM_KEEP_ALIVE_MS = 2_000;

const listening = async (server: Server) => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/**
 * An upstream whose keep-alive timeout, if it ever fires on a connection the gateway left idle, runs
 * `onIdleTimeout` and then resets that connection as soon as the next bytes arrive on it.
 */
async function racingUpstream(onIdleTimeout: () => void) {
  const connections: Socket[] = [];
  const timedOut = new Set<Socket>();
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => res.end(JSON.stringify({ method: req.method, url: req.url, body })));
  });
  server.keepAliveTimeout = UPSTREAM_KEEP_ALIVE_MS;
  server.on('connection', (socket: Socket) => {
    connections.push(socket);
    socket.prependListener('data', () => {
      if (timedOut.has(socket)) socket.resetAndDestroy();
    });
  });
  // With a listener here, Node leaves closing the timed-out connection to us.
  server.on('timeout', (socket: Socket) => {
    timedOut.add(socket);
    onIdleTimeout();
  });
  servers.push(server);
  return { url: await listening(server), connections };
}

async function gatewayTo(upstreamUrl: string) {
  const app = express();
  app.use(proxyTo(upstreamUrl, '/api/auth', 'identity'));
  const server = createServer(app);
  servers.push(server);
  return listening(server);
}

describe("the gateway's proxy to a service", () => {
  it.each([
    ['a session read', 'GET', undefined],
    ['a sign-in', 'POST', JSON.stringify({ email: 'learner@example.com', password: 'correct horse' })],
  ])(
    'answers %s sent after the upstream connection has been idle for its whole keep-alive timeout',
    async (_, method, body) => {
      const path = method === 'GET' ? '/api/auth/get-session' : '/api/auth/sign-in/email';
      let gateway = '';
      const send = () =>
        fetch(`${gateway}${path}`, { method, body, headers: { 'content-type': 'application/json' } }).then(
          async (response) => ({ status: response.status, json: await response.json() }),
        );
      let raced: Promise<{ status: number; json: unknown }> | undefined;
      const upstream = await racingUpstream(() => {
        raced = send();
      });
      gateway = await gatewayTo(upstream.url);

      expect((await send()).status).toBe(200);
      const [first] = upstream.connections;
      // Either the gateway lets the idle connection go first (it closes), or the upstream's timeout fires
      // on it (which sends the next request into the reset).
      await once(first as Socket, 'close');
      const second = await (raced ?? send());

      expect(second).toEqual({ status: 200, json: { method, url: path, body: body ?? '' } });
    },
  );
});
