// A private redis-server for fault tests: a free port, no persistence, stopped and started by its own
// PID so the shared Redis is never touched.
import { type ChildProcess, spawn } from 'node:child_process';
import { createConnection } from 'node:net';
import { freePort } from '@engram/local/ports';

export interface PrivateRedisServer {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function startPrivateRedisServer(binary = '/usr/bin/redis-server'): Promise<PrivateRedisServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    for (let i = 0; i < 100 && !(await listening(port)); i++) await new Promise((r) => setTimeout(r, 50));
    if (!(await listening(port))) throw new Error(`private redis-server did not start on port ${port}`);
  };
  const stop = async () => {
    const running = child;
    // Killed by a signal, a process has no exit code but a signal code: stopped either way.
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, start, stop };
}
