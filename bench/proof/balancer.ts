// What a Kubernetes Service does for the proof's replicas: a TCP port that hands each new connection to
// the next backend in turn, and to the one after when a backend refuses (kube-proxy drops an endpoint
// that is not ready; here a refused connect is the signal). Connections are spliced as they are, so
// HTTP keep-alive and gRPC's HTTP/2 connections stay on the backend they first reached.
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

export function startBalancer(port: number, backends: () => number[]): Promise<Balancer> {
  let turn = 0;
  const open = new Set<Socket>();
  const server: Server = createServer({ pauseOnConnect: true }, async (client) => {
    open.add(client);
    client.once('close', () => open.delete(client));
    client.on('error', () => client.destroy());
    const ports = backends();
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
            for (const socket of open) socket.destroy();
            server.close(() => done());
          }),
      }),
    );
  });
}
