// Closing an HTTP server without failing a request that reached it. Node's server.close() also cuts
// every keep-alive connection that is idle at that instant, while a client may be sending its next request
// on one: that request fails (ECONNRESET, "socket hang up") though nothing was wrong with it; and closing
// the listening socket resets the connections the kernel has accepted but Node has not yet taken. Draining
// instead answers every request from then on with `Connection: close` (so the client stops using that
// connection after the answer), stops listening only once no new connection came for a moment (the load
// balancer has seen the replica unready), and closes the connections left idle only after a grace, by when
// the load balancer has stopped sending to the replica.
//
// The same race cuts requests while the server runs, if the server is the side that gives up an idle
// connection: a client sending on it as the server closes it gets a reset. Node's server does so after 5 s,
// while ingress-nginx keeps its upstream connections 60 s, cloud load balancers 60 s, and Node's own
// http.Agent (the one Playwright's request context uses) for as long as the process lives; only a client
// that reads the `Keep-Alive: timeout=` hint, and keeps an idle timer of its own, closes first. So a serving
// server keeps idle connections longer than those (`keepIdleConnections`), and the client closes them.
import type { Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';

// Longer than a load balancer's readiness check takes to notice (the proof's checks every 100 ms).
const QUIET_MS = 500;

/** How long a served connection may sit idle: past ingress-nginx's and cloud load balancers' 60 s. */
const IDLE_CONNECTION_MS = 65_000;

/** How long a drain leaves idle connections open before closing them (the load balancer has moved on by then). */
const DRAIN_GRACE_MS = 5_000;

/** Lets clients and proxies be the side that closes an idle connection (see above). */
export function keepIdleConnections(server: Server): void {
  server.keepAliveTimeout = IDLE_CONNECTION_MS;
  // Node's standing advice: the headers' timeout above the idle one, so an idle connection is never taken for a slow request.
  server.headersTimeout = Math.max(server.headersTimeout, IDLE_CONNECTION_MS + 1_000);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface DrainableServer {
  /** Resolves once every connection has closed (idle ones after at most `graceMs`). */
  drain(graceMs?: number): Promise<void>;
}

export function drainable(server: Server): DrainableServer {
  let draining = false;
  const unanswered = new Set<ServerResponse>();
  const sockets = new Set<Socket>();
  let lastConnectionAt = 0;
  server.on('connection', (socket: Socket) => {
    lastConnectionAt = Date.now();
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // Before the app's own listener, so the header is set before anything is written.
  server.prependListener('request', (_request, response: ServerResponse) => {
    if (draining) {
      response.setHeader('connection', 'close');
      return;
    }
    unanswered.add(response);
    response.once('finish', () => unanswered.delete(response));
    response.once('close', () => unanswered.delete(response));
  });
  return {
    async drain(graceMs = DRAIN_GRACE_MS) {
      draining = true;
      for (const response of unanswered) if (!response.headersSent) response.setHeader('connection', 'close');
      // The listening socket only (http's close() would also cut the idle connections now); 'close'
      // follows once the last connection has gone.
      const closed = new Promise<void>((resolve) => server.once('close', () => resolve()));
      const deadline = Date.now() + graceMs;
      while (Date.now() - lastConnectionAt < QUIET_MS && Date.now() < deadline) await pause(50);
      NetServer.prototype.close.call(server);
      while (sockets.size > 0 && Date.now() < deadline) await pause(50);
      server.closeIdleConnections();
      await closed;
    },
  };
}
