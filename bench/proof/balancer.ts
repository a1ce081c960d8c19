// What a Kubernetes Service does for the proof's replicas: a TCP port that hands each new connection to
// the next ready backend in turn, and to the one after when a backend refuses. Each backend's /readyz is
// checked every 100 ms on its own, as the kubelet probes each pod, so a slow answer of one never delays
// what the balancer learns of another. An answer of not ready, or a refused connection (the process is
// stopping or gone), takes the backend out at once, as the endpoints controller takes out a terminating pod
// or one whose container exited; a check that gets no answer within a second counts as a failure, and only
// three in a row take the backend out (the probe's failureThreshold), so one slow answer of a busy new
// replica does not leave the Service with a single endpoint. Connections are spliced as they are, so HTTP
// keep-alive and gRPC's HTTP/2 connections stay on the backend they first reached, also once it is no
// longer ready, as with kube-proxy. Backends come and go as pods do (add, remove), so that a rolling update
// can start a new replica before it stops an old one, as the chart's does.
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface Balancer {
  port: number;
  /** The ports of the backends new connections go to now (the Service's endpoints). */
  endpoints(): number[];
  /**
   * Resolves once new connections may go to the backend serving on `port` (a readiness check begun after this call
   * has seen it ready), as a rolling update goes on only once the new pod is among the Service's endpoints; fails
   * after `timeoutMs`.
   */
  routesTo(port: number, timeoutMs?: number): Promise<void>;
  /** A new backend (a new pod): checked from now on, and routed to once a check has seen it ready. */
  add(backend: Backend): void;
  /** Takes a backend out for good (its pod deleted); connections already spliced to it stay. */
  remove(port: number): void;
  close(): Promise<void>;
}

export interface BalancerOptions {
  /** How long a readiness check waits for an answer before it counts as failed. */
  checkTimeoutMs?: number;
  /** Told each time a backend joins or leaves the endpoints, and why. */
  onChange?: (change: EndpointChange) => void;
}

export interface EndpointChange {
  port: number;
  ready: boolean;
  /** 'ready', 'not ready' (an answer of not ready, or no connection), or 'N checks unanswered in a row'. */
  why: string;
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

const CHECK_INTERVAL_MS = 100;
const CHECK_TIMEOUT_MS = 1_000;
/** Unanswered checks in a row that take a backend out (Kubernetes' default failureThreshold). */
const FAILURE_THRESHOLD = 3;
const ROUTES_TO_TIMEOUT_MS = 60_000;

type Check = 'ready' | 'not ready' | 'no answer';

async function check(backend: Backend, timeoutMs: number): Promise<Check> {
  try {
    const response = await fetch(`http://127.0.0.1:${backend.readyPort}/readyz`, {
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body?.cancel();
    return response.ok ? 'ready' : 'not ready';
  } catch (error) {
    return (error as Error).name === 'TimeoutError' ? 'no answer' : 'not ready';
  }
}

/** One backend as the balancer sees it, with its own round of checks. */
interface Endpoint {
  backend: Backend;
  ready: boolean;
  unanswered: number;
  /** Checks begun so far. */
  begun: number;
  /** Told after each check, with the number of that check. */
  waiting: Set<(check: number) => void>;
  removed: boolean;
}

export function startBalancer(port: number, backends: Backend[], options: BalancerOptions = {}): Promise<Balancer> {
  const checkTimeoutMs = options.checkTimeoutMs ?? CHECK_TIMEOUT_MS;
  let turn = 0;
  const open = new Set<Socket>();
  let checking = true;
  const endpoints: Endpoint[] = [];
  const watch = (backend: Backend, ready: boolean) => {
    const endpoint: Endpoint = { backend, ready, unanswered: 0, begun: 0, waiting: new Set(), removed: false };
    endpoints.push(endpoint);
    void (async () => {
      while (checking && !endpoint.removed) {
        endpoint.begun += 1;
        const number = endpoint.begun;
        const answer = await check(endpoint.backend, checkTimeoutMs);
        endpoint.unanswered = answer === 'no answer' ? endpoint.unanswered + 1 : 0;
        const was = endpoint.ready;
        if (answer === 'ready') endpoint.ready = true;
        else if (answer === 'not ready' || endpoint.unanswered >= FAILURE_THRESHOLD) endpoint.ready = false;
        if (endpoint.ready !== was) {
          const why = answer === 'no answer' ? `${endpoint.unanswered} checks unanswered in a row` : answer;
          options.onChange?.({ port: backend.port, ready: endpoint.ready, why });
        }
        for (const notify of endpoint.waiting) notify(number);
        await new Promise((resolve) => setTimeout(resolve, CHECK_INTERVAL_MS));
      }
    })();
  };
  // The first backends are tried from the start (the stack is started behind the balancer); one added later
  // only once it has been seen ready, as a new pod joins the endpoints.
  for (const backend of backends) watch(backend, true);
  const add = (backend: Backend) => watch(backend, false);
  const remove = (backendPort: number) => {
    const at = endpoints.findIndex((endpoint) => endpoint.backend.port === backendPort);
    const [endpoint] = at === -1 ? [] : endpoints.splice(at, 1);
    if (endpoint) endpoint.removed = true;
  };
  const routesTo = (backendPort: number, timeoutMs = ROUTES_TO_TIMEOUT_MS) => {
    const endpoint = endpoints.find((candidate) => candidate.backend.port === backendPort);
    if (!endpoint) return Promise.reject(new Error(`no backend serves on port ${backendPort}`));
    // Only a check begun after this call counts: the one under way may have been sent before the restart.
    const after = endpoint.begun;
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        endpoint.waiting.delete(notify);
        reject(new Error(`the balancer did not see the backend on port ${backendPort} ready within ${timeoutMs} ms`));
      }, timeoutMs);
      function notify(number: number) {
        if (number <= after || !endpoint?.ready) return;
        clearTimeout(timer);
        endpoint.waiting.delete(notify);
        resolve();
      }
      endpoint.waiting.add(notify);
    });
  };
  const readyPorts = () => endpoints.filter((endpoint) => endpoint.ready).map((endpoint) => endpoint.backend.port);
  const server: Server = createServer({ pauseOnConnect: true }, async (client) => {
    open.add(client);
    client.once('close', () => open.delete(client));
    client.on('error', () => client.destroy());
    // With none ready (all restarting at once), every one is tried rather than none.
    const candidates = readyPorts();
    const ports = candidates.length > 0 ? candidates : endpoints.map((endpoint) => endpoint.backend.port);
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
        endpoints: readyPorts,
        routesTo,
        add,
        remove,
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
