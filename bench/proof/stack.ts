// Engram as the proof runs it: every component under the runner's supervisor, on the proof's private
// PostgreSQL, NATS and Redis, with two replicas of the gateway and of cards, each pair behind a
// round-robin balancer as a Kubernetes Service would put them (the services reach cards, and the
// learners the gateways, only through theirs). A replica is restarted as the chart's rolling update
// replaces a pod (maxSurge 1, maxUnavailable 0): a new one is started on ports of its own and joins the
// balancer, and only once the balancer sends it connections is the old one sent SIGTERM; the single-replica
// services are restarted in place.
import { randomBytes } from 'node:crypto';
import { type ComponentName, type StackSettings, serviceDatabaseUrl } from '@engram/local/components';
import { migrateAll } from '@engram/local/migrations';
import { freePort, freePorts } from '@engram/local/ports';
import {
  type RunningStack,
  type SupervisedReplica,
  startProcesses,
  startSupervisedReplica,
} from '@engram/local/processes';
import { createSecrets } from '@engram/local/secrets';
import { describeEvent, type SupervisorEvent } from '@engram/local/supervisor';
import { type Balancer, type EndpointChange, startBalancer } from './balancer.ts';
import type { ProofInfrastructure } from './infra.ts';

export type Replica = 'gateway-a' | 'gateway-b' | 'cards-a' | 'cards-b';

export interface ProofStack {
  /** The gateways' balancer: the app's public URL. */
  url: string;
  databaseUrl: string;
  cardsDatabaseUrl: string;
  /**
   * The stack's settings as a caller sees them: the gateway and cards at their balancers' ports (their Services),
   * since a replica's own port goes with it when a rolling update replaces it.
   */
  settings: StackSettings;
  events: SupervisorEvent[];
  /** The last lines the components wrote, to explain a failure. */
  recentLines: string[];
  /**
   * The last errors the components logged (level error and up) and the gateway's failed calls to services, with
   * when (ms since the epoch): what a broken row's failed requests met inside the stack.
   */
  errorLines: { at: number; line: string }[];
  /** What each restart did and when (ms since the epoch): a failure is read beside the step it came with. */
  steps: { at: number; what: string }[];
  pid(replica: Replica): number | undefined;
  /** Whether every process answers its /healthz within `ms` (one whose event loop is busy does not). */
  responsive(ms: number): Promise<boolean>;
  /** A replica replaced as a rolling update does (the new one serving before the old one stops), a service in place. */
  restart(component: Replica | ComponentName): Promise<void>;
  stop(): Promise<void>;
}

const KEPT_LINES = 200;

/** pino's level of an error. */
const ERROR_LEVEL = 50;

/** Whether a component's log line is an error, or the gateway's warning that a call to a service failed. */
function loggedError(line: string): boolean {
  if (!line.startsWith('{')) return false;
  try {
    const { level, msg } = JSON.parse(line) as { level?: number; msg?: string };
    return (level ?? 0) >= ERROR_LEVEL || msg === 'service call failed';
  } catch {
    return false;
  }
}

/** One replica of the gateway or cards, whichever process serves it now. */
interface ReplicaHandle {
  port: number;
  metricsPort: number;
  pid(): number | undefined;
  stop(): Promise<unknown>;
}

export async function startProofStack(
  infrastructure: ProofInfrastructure,
  extraEnv: Record<string, string> = {},
): Promise<ProofStack> {
  await migrateAll(infrastructure.databaseUrl);
  const ports = await freePorts();
  const gatewayB = { serving: await freePort(), metrics: await freePort() };
  const cardsB = { serving: await freePort(), metrics: await freePort() };
  const gatewayBalancerPort = await freePort();
  const cardsBalancerPort = await freePort();
  const suffix = randomBytes(3).toString('hex');
  const settings: StackSettings = {
    databaseUrl: infrastructure.databaseUrl,
    redisUrl: infrastructure.redisUrl,
    natsUrl: infrastructure.natsUrl,
    ports,
    secrets: await createSecrets(),
    publicBaseUrl: `http://localhost:${gatewayBalancerPort}`,
    streamName: `ENGRAM_PROOF_${suffix.toUpperCase()}`,
    subjectPrefix: `proof_${suffix}.`,
    redisKeyPrefix: `proof_${suffix}:`,
    logLevel: 'warn',
    extraEnv: {
      CARDS_ADDR: `127.0.0.1:${cardsBalancerPort}`,
      // The limits guard the edge against one abuser; the proof's learners are many honest ones on one address.
      TRPC_RATE_LIMIT_PER_USER: '1000000',
      TRPC_RATE_LIMIT_PER_ADDRESS: '1000000',
      AUTH_RATE_LIMIT_MAX: '1000000',
      AUTH_RATE_LIMIT_SIGN_IN_MAX: '1000000',
      ...extraEnv,
    },
  };
  const events: SupervisorEvent[] = [];
  const steps: { at: number; what: string }[] = [];
  const recentLines: string[] = [];
  const keep = (line: string) => {
    recentLines.push(line);
    if (recentLines.length > KEPT_LINES) recentLines.shift();
  };
  const errorLines: { at: number; line: string }[] = [];
  const onLine = (component: ComponentName, line: string) => {
    keep(`[${component}] ${line}`);
    if (!loggedError(line)) return;
    errorLines.push({ at: performance.timeOrigin + performance.now(), line: `[${component}] ${line}` });
    if (errorLines.length > KEPT_LINES) errorLines.shift();
  };
  const onEvent = (event: SupervisorEvent) => {
    events.push(event);
    console.error(`[proof] ${describeEvent(event)}`);
  };
  // Which replica the balancers send new connections to, among the lines that explain a failure.
  const balancing = (name: string) => ({
    onChange: ({ port, ready, why }: EndpointChange) =>
      keep(`[${name} balancer] ${ready ? 'routes to' : 'takes out'} the replica on port ${port} (${why})`),
  });
  const cardsBalancer = await startBalancer(
    cardsBalancerPort,
    [
      { port: ports.grpc.cards, readyPort: ports.metrics.cards },
      { port: cardsB.serving, readyPort: cardsB.metrics },
    ],
    balancing('cards'),
  );
  const gatewayBalancer = await startBalancer(
    gatewayBalancerPort,
    [
      { port: ports.gateway, readyPort: ports.gatewayMetrics },
      { port: gatewayB.serving, readyPort: gatewayB.metrics },
    ],
    balancing('gateway'),
  );
  const balancers: Balancer[] = [cardsBalancer, gatewayBalancer];
  const balancerOf = (component: 'gateway' | 'cards') => (component === 'cards' ? cardsBalancer : gatewayBalancer);
  let stack: RunningStack | undefined;
  // Every replica started beside the stack's own (the second of each, and each one a rolling update started).
  const started: { component: 'gateway' | 'cards'; replica: SupervisedReplica }[] = [];
  const stop = async () => {
    const of = (component: 'gateway' | 'cards') => started.filter((entry) => entry.component === component);
    await Promise.all(of('gateway').map(({ replica }) => replica.stop()));
    await stack?.stop();
    await Promise.all(of('cards').map(({ replica }) => replica.stop()));
    await Promise.all(balancers.map((balancer) => balancer.close()));
  };
  const startReplica = async (component: 'gateway' | 'cards', ports: { serving: number; metrics: number }) => {
    const replica = await startSupervisedReplica(settings, component, ports, onLine, { onEvent });
    started.push({ component, replica });
    return { port: ports.serving, metricsPort: ports.metrics, pid: replica.pid, stop: replica.stop };
  };
  const current = {} as Record<Replica, ReplicaHandle>;
  try {
    stack = await startProcesses(settings, onLine, { onEvent });
    const running = stack;
    current['cards-a'] = {
      port: ports.grpc.cards,
      metricsPort: ports.metrics.cards,
      pid: () => running.pids().cards,
      stop: () => running.stopComponent('cards'),
    };
    current['gateway-a'] = {
      port: ports.gateway,
      metricsPort: ports.gatewayMetrics,
      pid: () => running.pids().gateway,
      stop: () => running.stopComponent('gateway'),
    };
    current['cards-b'] = await startReplica('cards', cardsB);
    current['gateway-b'] = await startReplica('gateway', gatewayB);
  } catch (error) {
    await stop();
    throw error;
  }
  const running = stack;
  const isReplica = (name: Replica | ComponentName): name is Replica => name in current;
  const singleMetricsPorts = Object.entries(ports.metrics)
    .filter(([name]) => name !== 'cards')
    .map(([, port]) => port);
  return {
    url: settings.publicBaseUrl,
    databaseUrl: infrastructure.databaseUrl,
    cardsDatabaseUrl: serviceDatabaseUrl(infrastructure.databaseUrl, 'cards'),
    settings: {
      ...settings,
      ports: { ...ports, gateway: gatewayBalancerPort, grpc: { ...ports.grpc, cards: cardsBalancerPort } },
    },
    events,
    recentLines,
    errorLines,
    steps,
    pid: (replica) => current[replica].pid(),
    async responsive(ms) {
      const healthPorts = [...Object.values(current).map((replica) => replica.metricsPort), ...singleMetricsPorts];
      const answers = await Promise.all(
        healthPorts.map((port) =>
          fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(ms) }).then(
            async (response) => {
              await response.body?.cancel();
              return response.ok;
            },
            () => false,
          ),
        ),
      );
      return answers.every(Boolean);
    },
    async restart(component) {
      const step = (what: string) => steps.push({ at: performance.timeOrigin + performance.now(), what });
      if (!isReplica(component)) {
        step(`${component}: restarts in place`);
        await running.restartComponent(component);
        step(`${component}: is back`);
        return;
      }
      const kind = component.startsWith('cards') ? 'cards' : 'gateway';
      const old = current[component];
      step(`${component}: its replacement starts`);
      const replacement = await startReplica(kind, { serving: await freePort(), metrics: await freePort() });
      step(`${component}: its replacement is ready`);
      const balancer = balancerOf(kind);
      balancer.add({ port: replacement.port, readyPort: replacement.metricsPort });
      // The old replica stops only once new connections go to the new one: unlike the new replica's own /readyz,
      // which the balancer reads only on its next check (stopping the old one before then could leave it none).
      await balancer.routesTo(replacement.port);
      step(`${component}: its replacement takes connections; the old one gets SIGTERM`);
      current[component] = replacement;
      await old.stop();
      step(`${component}: the old one has stopped`);
      balancer.remove(old.port);
    },
    stop,
  };
}
