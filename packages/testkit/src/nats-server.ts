// A private nats-server with JetStream for fault tests: started on a free port with its own store
// directory, so a test can stop and restart it (by its own PID) without touching the shared server.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const NATS_SERVER_BINARY = process.env.NATS_SERVER_BINARY ?? '/usr/sbin/nats-server';
/** How much of its last output a server that dies on its own leaves in the test's log. */
const OUTPUT_TAIL_CHARS = 8_000;
/** Servers being stopped on purpose: any other exit is a crash, reported with its last output. */
const stopping = new WeakSet<ChildProcess>();
const READY_TIMEOUT_MS = 15_000;
const STOP_TIMEOUT_MS = 10_000;

export interface PrivateNatsServer {
  url: string;
  port: number;
  storeDir: string;
  /** Stops the process (SIGTERM, then SIGKILL after a bound); JetStream data stays in storeDir. */
  stop(): Promise<void>;
  /** Starts it again on the same port and store directory. */
  start(): Promise<void>;
  /** Stops it and deletes its store directory. */
  dispose(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

function launch(port: number, storeDir: string): Promise<ChildProcess> {
  const args = ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir];
  const child = spawn(NATS_SERVER_BINARY, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolve, reject) => {
    let output = '';
    let ready = false;
    const fail = (reason: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`nats-server on port ${port} ${reason}:\n${output}`));
    };
    const timer = setTimeout(() => fail(`not ready within ${READY_TIMEOUT_MS} ms`), READY_TIMEOUT_MS);
    child.once('error', (error) => fail(`failed to start (${error.message})`));
    const onFailure = (code: number | null) => fail(`exited with ${code}`);
    child.once('exit', onFailure);
    // Keep reading after it is ready: a full stderr pipe would block the server. The tail is kept for a crash.
    child.stderr?.on('data', (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-OUTPUT_TAIL_CHARS);
      if (ready) return;
      if (output.includes('Server is ready')) {
        ready = true;
        clearTimeout(timer);
        child.off('exit', onFailure);
        child.once('exit', (code, signal) => {
          if (stopping.has(child)) return;
          console.error(
            `the private nats-server on port ${port} died (${signal ?? code}); its last output:\n${output}`,
          );
        });
        resolve(child);
      }
    });
  });
}

function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  stopping.add(child);
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export async function startPrivateNatsServer(): Promise<PrivateNatsServer> {
  const storeDir = await mkdtemp(join(tmpdir(), 'engram-nats-'));
  const port = await freePort();
  let child: ChildProcess | undefined = await launch(port, storeDir);
  const server: PrivateNatsServer = {
    url: `nats://127.0.0.1:${port}`,
    port,
    storeDir,
    async stop() {
      if (child) await terminate(child);
      child = undefined;
    },
    async start() {
      if (!child) child = await launch(port, storeDir);
    },
    async dispose() {
      await server.stop();
      await rm(storeDir, { recursive: true, force: true });
    },
  };
  return server;
}
