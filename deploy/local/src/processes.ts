// Starting Engram's processes, waiting until each reports ready, keeping them running (supervisor.ts:
// a process that dies is reported and started again) and stopping them all (SIGTERM, then SIGKILL after
// a grace period). Every output line is handed to `onLine` with the component's name.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import {
  type ComponentName,
  componentEnvironments,
  entryPointOf,
  metricsPortOf,
  type StackSettings,
} from './components.ts';
import {
  DEFAULT_RESTART_POLICY,
  describeEvent,
  exitStatus,
  type RestartPolicy,
  SupervisedProcess,
  type SupervisorEvent,
} from './supervisor.ts';

export type LineHandler = (component: ComponentName, line: string) => void;

export interface SupervisionOptions {
  /** Each exit nobody asked for, restart and giving up (describeEvent() words it for a log). */
  onEvent?: (event: SupervisorEvent) => void;
  restartPolicy?: Partial<RestartPolicy>;
}

export interface RunningStack {
  url: string;
  settings: StackSettings;
  stop(): Promise<void>;
  /** Stops one component with SIGTERM and resolves with its exit code. */
  stopComponent(name: ComponentName): Promise<number | null>;
  /** Restarts one component on purpose (SIGTERM, then started again); resolves once it is ready. */
  restartComponent(name: ComponentName): Promise<void>;
  /** The process id of each running component (for benchmarks that measure their CPU time). */
  pids(): Partial<Record<ComponentName, number>>;
  /**
   * Resolves with the reason once a component failed too often and every process has been stopped
   * (the runner then exits non-zero); never resolves while the stack runs or after a stop() asked for.
   */
  gaveUp: Promise<string>;
}

const READY_TIMEOUT_MS = 60_000;

async function waitReady(name: ComponentName, port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `${name} exited with ${exitStatus(child.exitCode, child.signalCode)} before it was ready:\n${lastLines.get(child)?.join('\n')}`,
      );
    }
    try {
      const response = await fetch(`http://127.0.0.1:${port}/readyz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${name} was not ready within ${READY_TIMEOUT_MS / 1000} s`);
}

// The last lines each process wrote, to explain a process that dies during start-up.
const lastLines = new WeakMap<ChildProcess, string[]>();
const KEPT_LINES = 20;

// Resolved on 'close', not 'exit': by then every line the process wrote has reached `onLine`.
const closed = new WeakMap<ChildProcess, Promise<number | null>>();

function exited(child: ChildProcess): Promise<number | null> {
  return closed.get(child) ?? Promise.resolve(child.exitCode);
}

async function terminate(child: ChildProcess, graceMs = 15_000): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return exited(child);
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  const code = await exited(child);
  clearTimeout(timer);
  return code;
}

function spawnComponent(name: ComponentName, env: Record<string, string>, onLine: LineHandler): ChildProcess {
  const entry = entryPointOf(name);
  if (!existsSync(entry)) throw new Error(`${entry} is missing: build first (pnpm run build:all)`);
  const child = spawn(process.execPath, ['--enable-source-maps', entry], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  closed.set(child, new Promise((resolve) => child.once('close', (code) => resolve(code))));
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      const kept = lastLines.get(child) ?? [];
      kept.push(line);
      lastLines.set(child, kept.slice(-KEPT_LINES));
      onLine(name, line);
    });
  }
  return child;
}

/**
 * One more replica of the gateway of a running stack, on its own ports but otherwise configured the same
 * (same services, same Redis and key prefix): what a second pod would be. Resolves once it is ready.
 */
export async function startGatewayReplica(
  settings: StackSettings,
  ports: { http: number; metrics: number },
  onLine: LineHandler,
): Promise<{ url: string; stop(): Promise<number | null> }> {
  const env = componentEnvironments(settings).find(([name]) => name === 'gateway')?.[1] ?? {};
  const child = spawnComponent(
    'gateway',
    { ...env, PORT: String(ports.http), METRICS_PORT: String(ports.metrics) },
    onLine,
  );
  try {
    await waitReady('gateway', ports.metrics, child);
  } catch (error) {
    await terminate(child);
    throw error;
  }
  return { url: `http://localhost:${ports.http}`, stop: () => terminate(child) };
}

export interface SupervisedReplica {
  /** The port it serves on: the gateway's HTTP port, a service's gRPC port. */
  port: number;
  pid(): number | undefined;
  restart(): Promise<void>;
  stop(): Promise<number | null>;
}

/**
 * One more replica of a component of a running stack, supervised like the others: on its own serving
 * and metrics ports but otherwise configured the same, what a second pod would be. Resolves once ready.
 */
export async function startSupervisedReplica(
  settings: StackSettings,
  name: ComponentName,
  ports: { serving: number; metrics: number },
  onLine: LineHandler,
  supervision: SupervisionOptions = {},
): Promise<SupervisedReplica> {
  const env = componentEnvironments(settings).find(([component]) => component === name)?.[1] ?? {};
  const serving: Record<string, string> =
    name === 'gateway' ? { PORT: String(ports.serving) } : { GRPC_PORT: String(ports.serving) };
  const policy = { ...DEFAULT_RESTART_POLICY, ...supervision.restartPolicy };
  const supervised: SupervisedProcess = new SupervisedProcess({
    name,
    spawn: () => spawnComponent(name, { ...env, ...serving, METRICS_PORT: String(ports.metrics) }, onLine),
    waitReady: (child) => waitReady(name, ports.metrics, child),
    terminate: (child) => terminate(child),
    policy,
    onEvent: (event) => supervision.onEvent?.(event),
    onGiveUp: () => void supervised.stop(),
  });
  try {
    await supervised.ready();
  } catch (error) {
    await supervised.stop();
    throw error;
  }
  return {
    port: ports.serving,
    pid: () => supervised.pid,
    restart: () => supervised.restart(),
    stop: () => supervised.stop(),
  };
}

export async function startProcesses(
  settings: StackSettings,
  onLine: LineHandler,
  supervision: SupervisionOptions = {},
): Promise<RunningStack> {
  const policy = { ...DEFAULT_RESTART_POLICY, ...supervision.restartPolicy };
  const processes = new Map<ComponentName, SupervisedProcess>();
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      // The gateway first, so no new request reaches a service that is stopping.
      await processes.get('gateway')?.stop();
      await Promise.all([...processes.values()].map((supervised) => supervised.stop()));
    })();
    return stopping;
  };
  let giveUp: (reason: string) => void = () => {};
  const gaveUp = new Promise<string>((resolve) => {
    giveUp = resolve;
  });
  const start = (name: ComponentName, env: Record<string, string>) => {
    const supervised = new SupervisedProcess({
      name,
      spawn: () => spawnComponent(name, env, onLine),
      waitReady: (child) => waitReady(name, metricsPortOf(name, settings.ports), child),
      terminate: (child) => terminate(child),
      policy,
      onEvent: (event) => {
        supervision.onEvent?.(event);
        if (event.kind === 'gave-up') giveUp(describeEvent(event, policy));
      },
      onGiveUp: () => void stop(),
    });
    processes.set(name, supervised);
    return supervised.ready();
  };
  try {
    // Every component starts at once, as pods do (none needs another to start: clients connect on first use), and
    // the stack is up once all of them serve.
    await Promise.all(componentEnvironments(settings).map(([name, env]) => start(name, env)));
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url: settings.publicBaseUrl,
    settings,
    stop,
    async stopComponent(name) {
      const supervised = processes.get(name);
      return supervised ? supervised.stop() : null;
    },
    async restartComponent(name) {
      await processes.get(name)?.restart();
    },
    pids: () => Object.fromEntries([...processes].map(([name, supervised]) => [name, supervised.pid])),
    // Only after every process has stopped, so the runner's exit leaves none behind.
    gaveUp: gaveUp.then(async (reason) => {
      await stop();
      return reason;
    }),
  };
}
