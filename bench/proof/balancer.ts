// What a Kubernetes Service does for the proof's replicas: a TCP port that hands each new connection to
// the next ready backend in turn (each backend's /readyz is checked every 100 ms, as the endpoints
// controller follows readiness probes), and to the one after when a backend refuses. Connections are
// spliced as they are, so HTTP keep-alive and gRPC's HTTP/2 connections stay on the backend they first
// reached, also once it is no longer ready, as with kube-proxy.
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface Balancer {
  port: number;
  /**
   * Resolves once new connections may go to the backend serving on `port` (a readiness check has seen it ready),
   * as a rolling update goes on only once the new pod is among the Service's endpoints; fails after `timeoutMs`.
   */
  routesTo(port: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

function connect(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

export interface Backend {
  port: number;
  /** Where its /readyz answers (its metrics port). */
  readyPort: number;
}

const READINESS_INTERVAL_MS = 100;

async function isReady(backend: Backend): Promise<boolean> {
  try {
    const response = await fetch(`http://127.0.0.1:${backend.readyPort}/readyz`, {
      signal: AbortSignal.timeout(1_000),
    });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

const ROUTES_TO_TIMEOUT_MS = 60_000;

export function startBalancer(port: number, backends: Backend[]): Promise<Balancer> {
  let turn = 0;
  const open = new Set<Socket>();
  let ready = new Set(backends);
  let checking = true;
  // Who waits for a backend to be routed to: told after each round of checks.
  const waiting = new Set<() => void>();
  void (async () => {
    while (checking) {
      const answers = await Promise.all(backends.map(isReady));
      ready = new Set(backends.filter((_, i) => answers[i]));
      for (const notify of waiting) notify();
      await new Promise((resolve) => setTimeout(resolve, READINESS_INTERVAL_MS));
    }
  })();
  const routesTo = (backendPort: number, timeoutMs = ROUTES_TO_TIMEOUT_MS) =>
    new Promise<void>((resolve, reject) => {
      const backend = backends.find((candidate) => candidate.port === backendPort);
      if (!backend) throw new Error(`no backend serves on port ${backendPort}`);
      const timer = setTimeout(() => {
        waiting.delete(notify);
        reject(new Error(`the balancer did not see the backend on port ${backendPort} ready within ${timeoutMs} ms`));
      }, timeoutMs);
      // Only a round of checks that began after this call counts: the set held now may be older than the restart.
      let rounds = 0;
      function notify() {
        rounds += 1;
        if (rounds < 2 || !ready.has(backend as Backend)) return;
        clearTimeout(timer);
        waiting.delete(notify);
        resolve();
      }
      waiting.add(notify);
    });
  const server: Server = createServer({ pauseOnConnect: true }, async (client) => {
    open.add(client);
    client.once('close', () => open.delete(client));
    client.on('error', () => client.destroy());
    // With none ready (all restarting at once), every one is tried rather than none.
    const candidates = backends.filter((backend) => ready.has(backend));
    const ports = (candidates.length > 0 ? candidates : backends).map((backend) => backend.port);
    turn += 1;
    for (let attempt = 0; attempt < ports.length; attempt += 1) {
      const backendPort = ports[(turn + attempt) % ports.length] as number;
      let backend: Socket;
      try {
        backend = await connect(backendPort);
      } catch {
        continue;
      }
      open.add(backend);
      backend.once('close', () => open.delete(backend));
      // A reset on one side resets the other, so a caller sees a killed backend as the broken connection it
      // is; an orderly close travels through the pipes after the last byte (destroying here would drop it).
      backend.on('error', () => client.destroy());
      client.on('error', () => backend.destroy());
      client.pipe(backend);
      backend.pipe(client);
      client.resume();
      return;
    }
    client.destroy();
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () =>
      resolve({
        port,
        routesTo,
        close: () =>
          new Promise<void>((done) => {
            checking = false;
            for (const socket of open) socket.destroy();
            server.close(() => done());
          }),
      }),
    );
  });
}
