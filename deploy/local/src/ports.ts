// Free TCP ports for stacks started by tests next to a running `npm start`. They are drawn from below
// the kernel's ephemeral range (32768+ here), so an outgoing connection cannot take a port between the
// moment it is chosen and the moment a process binds it; and each is reserved with a file naming the
// reserving process, so test workers running side by side never choose the same one.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Ports } from './components.ts';

const LOW = 20_000;
const HIGH = 32_000;
const reservations = join(tmpdir(), 'engram-ports');

/** Whether a process with this id runs (signal 0 checks without touching it). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Reserves `port` for this process unless a living process holds it already. */
function reserve(port: number): boolean {
  mkdirSync(reservations, { recursive: true });
  const file = join(reservations, String(port));
  try {
    writeFileSync(file, String(process.pid), { flag: 'wx' });
    return true;
  } catch {
    const holder = Number(readFileSync(file, 'utf8'));
    if (holder === process.pid || alive(holder)) return false;
    writeFileSync(file, String(process.pid)); // left by a process that is gone
    return true;
  }
}

function available(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '0.0.0.0', () => server.close(() => resolve(true)));
  });
}

export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = LOW + Math.floor(Math.random() * (HIGH - LOW));
    if (!(await available(port)) || !reserve(port)) continue;
    return port;
  }
  throw new Error(`no free port between ${LOW} and ${HIGH}`);
}

export async function freePorts(): Promise<Ports> {
  const next = freePort;
  return {
    gateway: await next(),
    gatewayMetrics: await next(),
    identityHttp: await next(),
    billingHttp: await next(),
    mediaStandIn: await next(),
    grpc: {
      identity: await next(),
      organizations: await next(),
      cards: await next(),
      billing: await next(),
      ai: await next(),
    },
    metrics: {
      identity: await next(),
      organizations: await next(),
      cards: await next(),
      billing: await next(),
      ai: await next(),
    },
  };
}
