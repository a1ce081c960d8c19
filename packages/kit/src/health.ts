// The metrics port of every process: /healthz (alive), /readyz (ready to take traffic) and /metrics
// (Prometheus). Kubernetes probes services over native gRPC health; these serve HTTP probes and scrapes.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { registry } from './metrics.js';

export interface HealthServer {
  port: number;
  setReady(ready: boolean): void;
  close(): Promise<void>;
}

export async function startHealthServer(port: number, host = '0.0.0.0'): Promise<HealthServer> {
  let ready = false;
  const server: Server = createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/healthz') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    } else if (path === '/readyz') {
      res.writeHead(ready ? 200 : 503, { 'content-type': 'text/plain' }).end(ready ? 'ready' : 'not ready');
    } else if (path === '/metrics') {
      // A failing collector must cost one scrape, not an unhandled rejection in the process.
      try {
        const body = await registry.metrics();
        res.writeHead(200, { 'content-type': registry.contentType }).end(body);
      } catch {
        res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable');
      }
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    setReady(value) {
      ready = value;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
