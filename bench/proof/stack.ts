// Engram as the proof runs it: every component under the runner's supervisor, on the proof's private
// PostgreSQL, NATS and Redis, with two replicas of the gateway and of cards, each pair behind a
// round-robin balancer as a Kubernetes Service would put them (the services reach cards, and the
// learners the gateways, only through theirs).
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
import { type Balancer, startBalancer } from './balancer.ts';
import type { ProofInfrastructure } from './infra.ts';

export type Replica = 'gateway-a' | 'gateway-b' | 'cards-a' | 'cards-b';

export interface ProofStack {
  /** The gateways' balancer: the app's public URL. */
  url: string;
  databaseUrl: string;
  cardsDatabaseUrl: string;
  settings: StackSettings;
  events: SupervisorEvent[];
  /** The last lines the components wrote, to explain a failure. */
  recentLines: string[];
  pid(replica: Replica): number | undefined;
  /** Whether every process answers its /healthz within `ms` (one whose event loop is busy does not). */
  responsive(ms: number): Promise<boolean>;
  restart(component: Replica | ComponentName): Promise<void>;
  stop(): Promise<void>;
}

const KEPT_LINES = 200;

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
  const recentLines: string[] = [];
  const onLine = (component: ComponentName, line: string) => {
    recentLines.push(`[${component}] ${line}`);
    if (recentLines.length > KEPT_LINES) recentLines.shift();
  };
  const onEvent = (event: SupervisorEvent) => {
    events.push(event);
    console.error(`[proof] ${describeEvent(event)}`);
  };
  const cardsBalancer = await startBalancer(cardsBalancerPort, [
    { port: ports.grpc.cards, readyPort: ports.metrics.cards },
    { port: cardsB.serving, readyPort: cardsB.metrics },
  ]);
  const gatewayBalancer = await startBalancer(gatewayBalancerPort, [
    { port: ports.gateway, readyPort: ports.gatewayMetrics },
    { port: gatewayB.serving, readyPort: gatewayB.metrics },
  ]);
  const balancers: Balancer[] = [cardsBalancer, gatewayBalancer];
  // Each replica, and the balancer in front of it.
  const routes: Record<Replica, { balancer: Balancer; port: number }> = {
    'cards-a': { balancer: cardsBalancer, port: ports.grpc.cards },
    'cards-b': { balancer: cardsBalancer, port: cardsB.serving },
    'gateway-a': { balancer: gatewayBalancer, port: ports.gateway },
    'gateway-b': { balancer: gatewayBalancer, port: gatewayB.serving },
  };
  let stack: RunningStack | undefined;
  const replicas: Partial<Record<'gateway-b' | 'cards-b', SupervisedReplica>> = {};
  const stop = async () => {
    await replicas['gateway-b']?.stop();
    await stack?.stop();
    await replicas['cards-b']?.stop();
    await Promise.all(balancers.map((balancer) => balancer.close()));
  };
  try {
    stack = await startProcesses(settings, onLine, { onEvent });
    replicas['cards-b'] = await startSupervisedReplica(settings, 'cards', cardsB, onLine, { onEvent });
    replicas['gateway-b'] = await startSupervisedReplica(settings, 'gateway', gatewayB, onLine, { onEvent });
  } catch (error) {
    await stop();
    throw error;
  }
  const running = stack;
  const healthPorts = [ports.gatewayMetrics, gatewayB.metrics, cardsB.metrics, ...Object.values(ports.metrics)];
  return {
    url: settings.publicBaseUrl,
    databaseUrl: infrastructure.databaseUrl,
    cardsDatabaseUrl: serviceDatabaseUrl(infrastructure.databaseUrl, 'cards'),
    settings,
    events,
    recentLines,
    pid(replica) {
      if (replica === 'gateway-a') return running.pids().gateway;
      if (replica === 'cards-a') return running.pids().cards;
      return replicas[replica]?.pid();
    },
    async responsive(ms) {
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
      if (component === 'gateway-a') await running.restartComponent('gateway');
      else if (component === 'cards-a') await running.restartComponent('cards');
      else if (component === 'gateway-b' || component === 'cards-b') await replicas[component]?.restart();
      else return running.restartComponent(component);
      // A replica is back once its balancer sends it connections again: as a rolling update waits for the new pod
      // to be ready and among the endpoints before it stops the next, and unlike the replica's own /readyz, which
      // the balancer reads only on its next round (stopping the other replica before then left it none to use).
      const route = routes[component];
      await route.balancer.routesTo(route.port);
    },
    stop,
  };
}
