// What a Kubernetes Service does for the proof's replicas: a TCP port that hands each new connection to
// the next ready backend in turn (each backend's /readyz is checked every 100 ms, as the endpoints
// controller follows readiness probes), and to the one after when a backend refuses. Connections are
// spliced as they are, so HTTP keep-alive and gRPC's HTTP/2 connections stay on the backend they first
// reached, also once it is no longer ready, as with kube-proxy.
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface Balancer {
  port: number;
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

export function startBalancer(port: number, backends: Backend[]): Promise<Balancer> {
  let turn = 0;
  const open = new Set<Socket>();
  let ready = new Set(backends);
  let checking = true;
  void (async () => {
    while (checking) {
      const answers = await Promise.all(backends.map(isReady));
      ready = new Set(backends.filter((_, i) => answers[i]));
      await new Promise((resolve) => setTimeout(resolve, READINESS_INTERVAL_MS));
    }
  })();
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
