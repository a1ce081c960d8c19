// Closing an HTTP server without failing a request that reached it. Node's server.close() also cuts
// every keep-alive connection that is idle at that instant, while a client may be sending its next request
// on one: that request fails (ECONNRESET, "socket hang up") though nothing was wrong with it. Draining
// instead stops accepting connections, answers every request from then on with `Connection: close` (so the
// client stops using that connection after the answer), and closes the connections left idle only after
// the server's keep-alive timeout, when the server would have closed them anyway.
import type { Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface DrainableServer {
  /** Resolves once every connection has closed (idle ones after at most `graceMs`). */
  drain(graceMs?: number): Promise<void>;
}

export function drainable(server: Server): DrainableServer {
  let draining = false;
  const unanswered = new Set<ServerResponse>();
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
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
    async drain(graceMs = server.keepAliveTimeout) {
      draining = true;
      for (const response of unanswered) if (!response.headersSent) response.setHeader('connection', 'close');
      // The listening socket only (http's close() would also cut the idle connections now); 'close'
      // follows once the last connection has gone.
      const closed = new Promise<void>((resolve) => server.once('close', () => resolve()));
      NetServer.prototype.close.call(server);
      const deadline = Date.now() + graceMs;
      while (sockets.size > 0 && Date.now() < deadline) await pause(50);
      server.closeIdleConnections();
      await closed;
    },
  };
}
