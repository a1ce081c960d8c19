// Keeping one component's process running as Kubernetes keeps a pod's container running: an exit that
// was not asked for is reported with its status, and the process is started again after a back-off that
// doubles with each recent failure; after too many failures within a window the supervisor gives up.
import type { ChildProcess } from 'node:child_process';
import type { ComponentName } from './components.ts';

export interface RestartPolicy {
  /** The wait before the first restart; each further failure within the window doubles it. */
  firstDelayMs: number;
  maxDelayMs: number;
  /** This many unasked exits within `windowMs` and the supervisor gives up. */
  maxFailures: number;
  windowMs: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicy = {
  firstDelayMs: 500,
  maxDelayMs: 8_000,
  maxFailures: 5,
  windowMs: 60_000,
};

export type SupervisorEvent =
  | { kind: 'exited'; component: ComponentName; status: string; failures: number; restartInMs: number }
  | { kind: 'restarted'; component: ComponentName; pid: number | undefined }
  | { kind: 'gave-up'; component: ComponentName; status: string; failures: number; windowMs: number };

/** The runner's log line for an event: names the component and, for an exit, its code or signal. */
export function describeEvent(event: SupervisorEvent, policy = DEFAULT_RESTART_POLICY): string {
  switch (event.kind) {
    case 'exited':
      return `${event.component} exited unexpectedly (${event.status}); restarting in ${event.restartInMs / 1000} s (failure ${event.failures} of ${policy.maxFailures} allowed within ${policy.windowMs / 1000} s)`;
    case 'restarted':
      return `${event.component} restarted and ready again (pid ${event.pid})`;
    case 'gave-up':
      return `GIVING UP: ${event.component} failed ${event.failures} times within ${event.windowMs / 1000} s (last: ${event.status}); stopping everything`;
  }
}

export function exitStatus(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `signal ${signal}` : `exit code ${code}`;
}

export interface SupervisedOptions {
  name: ComponentName;
  spawn(): ChildProcess;
  /** Resolves once the process serves; rejects when it exits first or never becomes ready. */
  waitReady(child: ChildProcess): Promise<void>;
  /** Asks a process to stop (SIGTERM, then SIGKILL) and resolves with its exit code. */
  terminate(child: ChildProcess): Promise<number | null>;
  policy: RestartPolicy;
  onEvent(event: SupervisorEvent): void;
  /** Called once, after the `gave-up` event. */
  onGiveUp(): void;
}

export class SupervisedProcess {
  #child: ChildProcess;
  #stopping = false;
  #failures: number[] = [];
  #timer: NodeJS.Timeout | undefined;
  // Processes stopped on purpose (stop(), restart()): their exit is no failure.
  #asked = new WeakSet<ChildProcess>();
  private readonly options: SupervisedOptions;

  constructor(options: SupervisedOptions) {
    this.options = options;
    this.#child = this.#spawn();
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** Resolves once the first process is ready. */
  ready(): Promise<void> {
    return this.options.waitReady(this.#child);
  }

  /** Stops the process for good: whatever exit follows is the one asked for. */
  async stop(): Promise<number | null> {
    this.#stopping = true;
    clearTimeout(this.#timer);
    this.#asked.add(this.#child);
    return this.options.terminate(this.#child);
  }

  /** A restart asked for, as a rolling update does it: SIGTERM, wait for the exit, start, wait until ready. */
  async restart(): Promise<void> {
    const old = this.#child;
    this.#asked.add(old);
    await this.options.terminate(old);
    if (this.#stopping) return;
    this.#child = this.#spawn();
    await this.options.waitReady(this.#child);
  }

  #spawn(): ChildProcess {
    const child = this.options.spawn();
    child.once('exit', (code, signal) => {
      if (!this.#stopping && !this.#asked.has(child) && child === this.#child) this.#crashed(exitStatus(code, signal));
    });
    return child;
  }

  #crashed(status: string): void {
    const { policy, name } = this.options;
    const now = Date.now();
    this.#failures = [...this.#failures.filter((at) => now - at < policy.windowMs), now];
    const failures = this.#failures.length;
    if (failures >= policy.maxFailures) {
      this.#stopping = true;
      this.options.onEvent({ kind: 'gave-up', component: name, status, failures, windowMs: policy.windowMs });
      this.options.onGiveUp();
      return;
    }
    const restartInMs = Math.min(policy.firstDelayMs * 2 ** (failures - 1), policy.maxDelayMs);
    this.options.onEvent({ kind: 'exited', component: name, status, failures, restartInMs });
    this.#timer = setTimeout(() => void this.#restart(), restartInMs);
  }

  async #restart(): Promise<void> {
    if (this.#stopping) return;
    const child = this.#spawn();
    this.#child = child;
    try {
      await this.options.waitReady(child);
    } catch {
      // An exit before it was ready has been counted by the exit handler; one that hangs is killed, and
      // its exit counts.
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      return;
    }
    if (!this.#stopping && child === this.#child) {
      this.options.onEvent({ kind: 'restarted', component: this.options.name, pid: child.pid });
    }
  }
}
