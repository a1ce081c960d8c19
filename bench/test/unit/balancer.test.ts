// The proof's balancer stands for a Kubernetes Service: what it believes about each replica's readiness decides
// whether a rolling restart can keep its promise of no failed request. A replica that says it is stopping is taken
// out at once, whatever another replica's check is waiting for; a replica slow to answer its check is kept until
// three checks in a row went unanswered, as a readiness probe's failureThreshold keeps it.
import { once } from 'node:events';
import { createServer as createHttpServer, type ServerResponse } from 'node:http';
import { type AddressInfo, connect, createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type Balancer, type EndpointChange, startBalancer } from '../../proof/balancer.ts';

type Readiness = 'ready' | 'not ready' | 'silent';

/** A replica: a serving port that answers with its name, and a /readyz whose answer the test sets. */
interface Replica {
  name: string;
  port: number;
  readyPort: number;
  readiness: Readiness;
  /** Checks received, and those still waiting for an answer (silent ones), oldest first. */
  checks: number;
  waiting: ServerResponse[];
  /** Called as each check arrives. */
  onCheck?: () => void;
  stopServing(): Promise<void>;
  stopAnswering(): Promise<void>;
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const portOf = (server: { address(): unknown }) => (server.address() as AddressInfo).port;

async function replica(name: string, readiness: Readiness = 'ready'): Promise<Replica> {
  const serving: Server = createServer((socket) => socket.end(name));
  serving.listen(0, '127.0.0.1');
  await once(serving, 'listening');
  const checks = createHttpServer((_request, response) => {
    self.checks += 1;
    self.onCheck?.();
    if (self.readiness === 'silent') self.waiting.push(response);
    else response.writeHead(self.readiness === 'ready' ? 200 : 503).end();
  });
  checks.listen(0, '127.0.0.1');
  await once(checks, 'listening');
  const close = (server: { close(callback: () => void): unknown }) =>
    new Promise<void>((resolve) => server.close(() => resolve()));
  const self: Replica = {
    name,
    port: portOf(serving),
    readyPort: portOf(checks),
    readiness,
    checks: 0,
    waiting: [],
    stopServing: () => (serving.listening ? close(serving) : Promise.resolve()),
    stopAnswering: () => {
      checks.closeAllConnections();
      return checks.listening ? close(checks) : Promise.resolve();
    },
  };
  closers.push(self.stopServing, self.stopAnswering);
  return self;
}

async function balancerFor(
  replicas: Replica[],
  checkTimeoutMs: number,
  onChange?: (change: EndpointChange) => void,
): Promise<Balancer> {
  const free = createServer();
  free.listen(0, '127.0.0.1');
  await once(free, 'listening');
  const port = portOf(free);
  await new Promise((resolve) => free.close(resolve));
  const balancer = await startBalancer(
    port,
    replicas.map(({ port: servingPort, readyPort }) => ({ port: servingPort, readyPort })),
    { checkTimeoutMs, onChange },
  );
  closers.push(balancer.close);
  return balancer;
}

/** Waits for a condition, checking it every 10 ms (the test's own timeout bounds the wait). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** Which replica a new connection through the balancer reaches. */
function reached(balancer: Balancer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(balancer.port, '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

const A_LONG_TIME_MS = 60_000;

describe("the proof's balancer", () => {
  it("takes a replica that answers not ready out at once, while another replica's check still waits for its answer", async () => {
    const slow = await replica('slow', 'silent');
    const stopping = await replica('stopping');
    const balancer = await balancerFor([slow, stopping], A_LONG_TIME_MS);
    await until(() => stopping.checks >= 1 && slow.waiting.length === 1);

    stopping.readiness = 'not ready';
    await until(() => !balancer.endpoints().includes(stopping.port));

    // The slow replica's first check is still unanswered, and one unanswered check takes nobody out.
    expect(slow.checks).toBe(1);
    expect(slow.waiting).toHaveLength(1);
    expect(balancer.endpoints()).toEqual([slow.port]);
    expect(await reached(balancer)).toBe('slow');
    expect(await reached(balancer)).toBe('slow');
  });

  it('keeps a replica whose checks go unanswered twice, takes it out after the third in a row, and back once it answers ready', async () => {
    const busy = await replica('busy', 'silent');
    const other = await replica('other');
    // Only the busy replica's: under load the other's checks may go unanswered too, with so short a wait.
    const changes: EndpointChange[] = [];
    const balancer = await balancerFor([busy, other], 50, (change) => {
      if (change.port === busy.port) changes.push(change);
    });
    await until(() => changes.length >= 1);
    // The first change is the third unanswered check's: the first two left the replica among the endpoints.
    expect(changes).toEqual([{ port: busy.port, ready: false, why: '3 checks unanswered in a row' }]);
    expect(balancer.endpoints()).not.toContain(busy.port);

    busy.readiness = 'ready';
    await until(() => changes.length >= 2);
    expect(changes[1]).toEqual({ port: busy.port, ready: true, why: 'ready' });
    expect(balancer.endpoints()).toContain(busy.port);
  });

  it('takes out a replica whose process is gone, and sends a connection that a stopped replica refuses to the next', async () => {
    const gone = await replica('gone');
    const stopped = await replica('stopped');
    const serving = await replica('serving');
    const balancer = await balancerFor([gone, stopped, serving], A_LONG_TIME_MS);
    await until(() => serving.checks >= 1);

    await gone.stopServing();
    await gone.stopAnswering();
    await until(() => !balancer.endpoints().includes(gone.port));
    // Its /readyz still says ready, but it no longer accepts connections.
    await stopped.stopServing();
    const answers = [await reached(balancer), await reached(balancer), await reached(balancer)];
    expect(answers).toEqual(['serving', 'serving', 'serving']);
  });

  it('says a restarted replica is routed to only after a check begun after the restart has seen it ready', async () => {
    const restarted = await replica('restarted', 'silent');
    const other = await replica('other');
    const balancer = await balancerFor([restarted, other], A_LONG_TIME_MS);
    await until(() => restarted.waiting.length === 1);

    let routed = false;
    void balancer.routesTo(restarted.port).then(() => {
      routed = true;
    });
    // The check under way was sent before the call: its answer, though ready, does not count.
    restarted.waiting.shift()?.writeHead(200).end();
    await until(() => restarted.waiting.length === 1);
    expect(routed).toBe(false);

    restarted.waiting.shift()?.writeHead(200).end();
    await until(() => routed);
  });

  it('lets a new replica in only once it answers ready, and sends nothing more to one taken away, as a rolling update replaces a pod', async () => {
    const old = await replica('old');
    const other = await replica('other');
    const balancer = await balancerFor([old, other], A_LONG_TIME_MS);
    const fresh = await replica('new', 'not ready');
    balancer.add({ port: fresh.port, readyPort: fresh.readyPort });
    await until(() => fresh.checks >= 1);
    expect(balancer.endpoints()).toEqual([old.port, other.port]);

    fresh.readiness = 'ready';
    await balancer.routesTo(fresh.port);
    balancer.remove(old.port);
    expect(balancer.endpoints()).toEqual([other.port, fresh.port]);
    const answers = new Set([await reached(balancer), await reached(balancer), await reached(balancer)]);
    expect(answers).toEqual(new Set(['other', 'new']));
    const checksOfOld = old.checks;
    await until(() => fresh.checks >= 3 + 1);
    expect(old.checks).toBeLessThanOrEqual(checksOfOld + 1);
  });
});
