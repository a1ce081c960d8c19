// What the chart promises the cluster around it: migrations as correctly ordered hooks, NetworkPolicies
// that admit exactly the architecture's calls (only the gateway from outside), the Ingress with TLS,
// autoscaling and disruption budgets, Prometheus scraping, and the in-cluster dependencies of dev.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MIGRATED_SERVICES, repoRoot } from '@engram/local/components';
import { describe, expect, it } from 'vitest';
import { find, helmTemplate, type KubeObject, ofKind, render, renderProfile } from './helm-support.ts';
import { type Endpoint, mayConnect, podOf } from './network-policy-model.ts';

const COMPONENTS = ['gateway', 'identity', 'organizations', 'cards', 'billing', 'ai'];
const PORTS: Record<string, { serving: number[]; metrics: number }> = {
  gateway: { serving: [3000], metrics: 9460 },
  identity: { serving: [3001, 50051], metrics: 9461 },
  organizations: { serving: [50052], metrics: 9462 },
  cards: { serving: [50053], metrics: 9463 },
  billing: { serving: [3004, 50054], metrics: 9464 },
  ai: { serving: [50055], metrics: 9465 },
};
// docs/architecture.md#conventions: who calls whom, on which ports.
const CALLS = new Set([
  'gateway→identity:3001',
  'gateway→identity:50051',
  'gateway→organizations:50052',
  'gateway→cards:50053',
  'gateway→billing:3004',
  'gateway→billing:50054',
  'gateway→ai:50055',
  'organizations→identity:50051',
  'organizations→cards:50053',
  'ai→cards:50053',
  'ai→billing:50054',
  // A learner's storage quota, asked when they add a card file.
  'cards→billing:50054',
]);

const hookOf = (o: KubeObject) => o.metadata.annotations?.['helm.sh/hook'];
const weightOf = (o: KubeObject) => Number(o.metadata.annotations?.['helm.sh/hook-weight']);

describe('the migrations', () => {
  const objects = render();
  const jobs = ofKind(objects, 'Job');

  it('run as one pre-install/pre-upgrade hook Job per database-owning service, in start order, from its own image', () => {
    expect(jobs.map((j) => j.metadata.name)).toEqual(MIGRATED_SERVICES.map((s) => `migrate-${s}`));
    for (const [index, service] of MIGRATED_SERVICES.entries()) {
      const job = find(objects, 'Job', `migrate-${service}`);
      expect(hookOf(job)).toBe('pre-install,pre-upgrade');
      expect(job.metadata.annotations?.['helm.sh/hook-delete-policy']).toBe('before-hook-creation,hook-succeeded');
      expect(weightOf(job)).toBe(index);
      const [container] = job.spec.template.spec.containers;
      expect(container.image).toBe(`ghcr.io/engram-app/${service}:0.1.0`);
      expect(container.env).toContainEqual({
        name: 'DATABASE_URL',
        valueFrom: { secretKeyRef: { name: 'engram', key: `DATABASE_URL_${service.toUpperCase()}` } },
      });
      expect(job.spec.template.spec.restartPolicy).toBe('Never');
      expect(job.spec).toMatchObject({
        backoffLimit: expect.any(Number),
        activeDeadlineSeconds: expect.any(Number),
        ttlSecondsAfterFinished: expect.any(Number),
      });
    }
  });

  it('use a ServiceAccount that is itself a hook created before the Jobs, since ordinary objects do not exist yet', () => {
    const accounts = new Set(jobs.map((j) => j.spec.template.spec.serviceAccountName));
    expect(accounts.size).toBe(1);
    const account = find(objects, 'ServiceAccount', [...accounts][0] ?? '');
    expect(hookOf(account)).toBe('pre-install,pre-upgrade');
    for (const job of jobs) expect(weightOf(account)).toBeLessThan(weightOf(job));
    // Every other object is an ordinary release object: a hook depending on one would fail on install.
    const hooks = objects.filter(hookOf).map((o) => `${o.kind}/${o.metadata.name}`);
    expect(hooks.sort()).toEqual([
      'Job/migrate-ai',
      'Job/migrate-billing',
      'Job/migrate-cards',
      'Job/migrate-identity',
      'Job/migrate-organizations',
      `ServiceAccount/${account.metadata.name}`,
    ]);
  });

  it('run a command that exists in the service image: the kit migration runner on the service migrations', () => {
    const [command] = jobs.map((j) => j.spec.template.spec.containers[0].command);
    const [, script, verb, dir] = command;
    expect(script).toMatch(/^node_modules\/@engram\/kit\/dist\/(.+)\.js$/);
    const source = script.replace(/^node_modules\/@engram\/kit\/dist\/(.+)\.js$/, 'packages/kit/src/$1.ts');
    expect(existsSync(join(repoRoot, source))).toBe(true);
    expect(verb).toBe('apply');
    for (const service of MIGRATED_SERVICES) expect(existsSync(join(repoRoot, 'services', service, dir))).toBe(true);
    expect(jobs.every((j) => j.spec.template.spec.containers[0].workingDir === '/app')).toBe(true);
  });

  it('run the migration command the Dockerfile documents for its images', () => {
    const dockerfile = readFileSync(join(repoRoot, 'deploy', 'docker', 'Dockerfile'), 'utf8');
    const documented = /^#\s+(\["node",.*migrate.*\])/m.exec(dockerfile)?.[1];
    expect(documented, 'a `# ["node", ...migrate...]` line in deploy/docker/Dockerfile').toBeDefined();
    for (const job of jobs) expect(job.spec.template.spec.containers[0].command).toEqual(JSON.parse(documented ?? ''));
  });

  it('run as init containers of their services when the release deploys its own database (dev)', () => {
    const dev = renderProfile('dev');
    expect(ofKind(dev, 'Job')).toEqual([]);
    expect(dev.filter(hookOf)).toEqual([]);
    for (const service of MIGRATED_SERVICES) {
      const [init] = find(dev, 'Deployment', service).spec.template.spec.initContainers;
      expect(init.name).toBe('migrate');
      expect(init.image).toBe(find(dev, 'Deployment', service).spec.template.spec.containers[0].image);
    }
    expect(find(dev, 'Deployment', 'gateway').spec.template.spec.initContainers).toBeUndefined();
  });

  it('refuse hook mode with the in-cluster dev database, which would not exist yet when the hook runs', () => {
    const result = helmTemplate({ set: ['devDependencies.enabled=true'] });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/hook cannot reach a database this release has not created yet/);
  });
});

describe('the NetworkPolicies', () => {
  const production = renderProfile('production');
  const policies = ofKind(production, 'NetworkPolicy');
  const pod = (name: string) => podOf(find(production, 'Deployment', name));
  const podIn = (ns: string): Endpoint => ({ kind: 'pod', namespace: ns, labels: { app: 'x' } });
  const internet: Endpoint = { kind: 'address', ip: '203.0.113.7' };

  it('are rendered only when switched on', () => {
    expect(ofKind(render(), 'NetworkPolicy')).toEqual([]);
    expect(policies.length).toBeGreaterThan(COMPONENTS.length);
  });

  it('allow exactly the calls of the architecture between components, on exactly their ports', () => {
    for (const from of COMPONENTS) {
      for (const to of COMPONENTS) {
        for (const port of [...(PORTS[to]?.serving ?? []), PORTS[to]?.metrics ?? 0]) {
          const expected = CALLS.has(`${from}→${to}:${port}`);
          expect(mayConnect(policies, pod(from), pod(to), port), `${from}→${to}:${port}`).toBe(expected);
        }
      }
    }
  });

  it('let only the gateway be reached from outside the release, and only from the ingress controller', () => {
    const outsiders = [internet, podIn('default'), podIn('monitoring'), podIn('ingress-nginx')];
    for (const name of COMPONENTS) {
      for (const port of PORTS[name]?.serving ?? []) {
        for (const outsider of outsiders) {
          const expected = name === 'gateway' && outsider.kind === 'pod' && outsider.namespace === 'ingress-nginx';
          expect(mayConnect(policies, outsider, pod(name), port), `${JSON.stringify(outsider)}→${name}:${port}`).toBe(
            expected,
          );
        }
      }
    }
  });

  it('let the gateway be reached from anywhere when no ingress source is configured', () => {
    const open = ofKind(render({ set: ['networkPolicy.enabled=true'] }), 'NetworkPolicy');
    expect(mayConnect(open, internet, pod('gateway'), 3000)).toBe(true);
    expect(mayConnect(open, internet, pod('cards'), 50053)).toBe(false);
  });

  it('let the monitoring namespace, and nobody else outside, scrape every metrics port', () => {
    for (const name of COMPONENTS) {
      const metrics = PORTS[name]?.metrics ?? 0;
      expect(mayConnect(policies, podIn('monitoring'), pod(name), metrics), name).toBe(true);
      expect(mayConnect(policies, podIn('default'), pod(name), metrics), name).toBe(false);
    }
  });

  it('let components reach DNS, and only their own dependencies and outside services', () => {
    const kubeDns: Endpoint = { kind: 'pod', namespace: 'kube-system', labels: { 'k8s-app': 'kube-dns' } };
    const postgres: Endpoint = { kind: 'address', ip: '10.20.0.5' };
    const redis: Endpoint = { kind: 'address', ip: '10.20.1.5' };
    const nats: Endpoint = { kind: 'pod', namespace: 'nats', labels: { app: 'nats' } };
    const stripe: Endpoint = { kind: 'address', ip: '54.187.216.72' };
    const clusterInternal: Endpoint = { kind: 'address', ip: '10.99.0.1' };
    for (const name of COMPONENTS) {
      const source = pod(name);
      expect(mayConnect(policies, source, kubeDns, 53), `${name} DNS`).toBe(true);
      expect(mayConnect(policies, source, postgres, 5432), `${name} PostgreSQL`).toBe(
        ['identity', 'organizations', 'cards', 'billing', 'ai'].includes(name),
      );
      expect(mayConnect(policies, source, redis, 6379), `${name} Redis`).toBe(['identity', 'gateway'].includes(name));
      expect(mayConnect(policies, source, nats, 4222), `${name} NATS`).toBe(
        ['identity', 'organizations', 'cards', 'billing', 'ai'].includes(name),
      );
      expect(mayConnect(policies, source, stripe, 443), `${name} HTTPS`).toBe(
        ['identity', 'billing', 'ai'].includes(name),
      );
      expect(mayConnect(policies, source, clusterInternal, 443), `${name} internal 443`).toBe(false);
      expect(mayConnect(policies, source, internet, 80), `${name} port 80`).toBe(false);
    }
    const migrations = podOf(find(production, 'Job', 'migrate-cards'));
    expect(mayConnect(policies, migrations, postgres, 5432)).toBe(true);
    expect(mayConnect(policies, migrations, stripe, 443)).toBe(false);
  });

  it('let cards and the gateway (which reads card files and sends AnkiConnect files) reach HTTPS only once media are in an S3 bucket', () => {
    const s3: Endpoint = { kind: 'address', ip: '52.95.150.10' };
    const withBucket = renderProfile('production', { json: { cards: { media: { bucket: 'engram-media' } } } });
    for (const name of ['cards', 'gateway']) {
      const component = podOf(find(withBucket, 'Deployment', name));
      expect(mayConnect(ofKind(withBucket, 'NetworkPolicy'), component, s3, 443), name).toBe(true);
      expect(mayConnect(policies, pod(name), s3, 443), name).toBe(false);
    }
  });

  it('connect components to the in-cluster dependencies in dev, and nothing else to them', () => {
    const dev = renderProfile('dev', { set: ['networkPolicy.enabled=true'] });
    const devPolicies = ofKind(dev, 'NetworkPolicy');
    const devPod = (kind: string, name: string) => podOf(find(dev, kind, name));
    const postgres = devPod('StatefulSet', 'dev-postgresql');
    expect(mayConnect(devPolicies, devPod('Deployment', 'cards'), postgres, 5432)).toBe(true);
    expect(mayConnect(devPolicies, devPod('Deployment', 'gateway'), postgres, 5432)).toBe(false);
    expect(mayConnect(devPolicies, podIn('default'), postgres, 5432)).toBe(false);
    expect(mayConnect(devPolicies, devPod('Deployment', 'identity'), devPod('Deployment', 'dev-redis'), 6379)).toBe(
      true,
    );
    expect(mayConnect(devPolicies, devPod('Deployment', 'cards'), devPod('Deployment', 'dev-nats'), 4222)).toBe(true);
    expect(mayConnect(devPolicies, devPod('Deployment', 'identity'), devPod('Deployment', 'dev-nats'), 4222)).toBe(
      true,
    );
  });
});

describe('the way in, scaling and scraping (production values)', () => {
  const production = renderProfile('production');

  it('route the Ingress hosts to the gateway with TLS', () => {
    const [ingress, ...others] = ofKind(production, 'Ingress');
    expect(others).toEqual([]);
    expect(ingress?.spec.ingressClassName).toBe('nginx');
    expect(ingress?.spec.tls).toEqual([{ hosts: ['engram.example.com'], secretName: 'engram-tls' }]);
    expect(ingress?.spec.rules[0].http.paths[0].backend).toEqual({
      service: { name: 'gateway', port: { name: 'http' } },
    });
    expect(ofKind(render(), 'Ingress')).toEqual([]);
  });

  it('autoscale and protect every component, at least two replicas each', () => {
    for (const name of COMPONENTS) {
      const deployment = find(production, 'Deployment', name);
      const hpa = find(production, 'HorizontalPodAutoscaler', name);
      expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name });
      expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
      // The HPA owns the replica count; a Deployment value would reset it on every upgrade.
      expect(deployment.spec.replicas).toBeUndefined();
      const pdb = find(production, 'PodDisruptionBudget', name);
      expect(pdb.spec.selector.matchLabels).toEqual(deployment.spec.selector.matchLabels);
      expect(pdb.spec.minAvailable).toBeLessThan(hpa.spec.minReplicas);
    }
    const defaults = render();
    expect([...ofKind(defaults, 'HorizontalPodAutoscaler'), ...ofKind(defaults, 'PodDisruptionBudget')]).toEqual([]);
  });

  it('accept a PDB by maxUnavailable instead of minAvailable', () => {
    const objects = render({
      json: { ai: { podDisruptionBudget: { enabled: true, minAvailable: null, maxUnavailable: '50%' } } },
    });
    expect(find(objects, 'PodDisruptionBudget', 'ai').spec).toMatchObject({ maxUnavailable: '50%' });
    expect(find(objects, 'PodDisruptionBudget', 'ai').spec.minAvailable).toBeUndefined();
  });

  it('scrape the metrics port of every component, by a ServiceMonitor or by pod annotations', () => {
    const [monitor] = ofKind(production, 'ServiceMonitor');
    const defaults = render();
    expect(monitor?.spec.endpoints).toEqual([expect.objectContaining({ port: 'metrics', path: '/metrics' })]);
    for (const name of COMPONENTS) {
      const service = find(production, 'Service', name);
      expect(service.spec.ports.map((p: { name: string }) => p.name)).toContain('metrics');
      expect(monitor?.spec.selector.matchExpressions[0].values).toContain(name);
      for (const [key, value] of Object.entries(monitor?.spec.selector.matchLabels ?? {})) {
        expect(service.metadata.labels?.[key]).toBe(value);
      }
      const annotations = find(defaults, 'Deployment', name).spec.template.metadata.annotations;
      expect(annotations).toMatchObject({
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': String(PORTS[name]?.metrics),
      });
    }
  });
});

describe('the dev values', () => {
  const dev = renderProfile('dev');

  it('deploy single-replica PostgreSQL, Redis and NATS with JetStream and point the components at them', () => {
    expect(find(dev, 'StatefulSet', 'dev-postgresql').spec.template.spec.containers[0].image).toBe(
      'postgres:17-alpine',
    );
    expect(find(dev, 'Deployment', 'dev-redis').spec.template.spec.containers[0].image).toBe('redis:7-alpine');
    const nats = find(dev, 'Deployment', 'dev-nats').spec.template.spec.containers[0];
    expect(nats.image).toBe('nats:2-alpine');
    expect(nats.args).toContain('-js');
    for (const name of ['dev-postgresql', 'dev-redis', 'dev-nats']) expect(find(dev, 'Service', name)).toBeDefined();
    const env = (component: string, variable: string) =>
      find(dev, 'Deployment', component).spec.template.spec.containers[0].env.find(
        (e: { name: string }) => e.name === variable,
      ).value;
    expect(env('identity', 'REDIS_URL')).toBe('redis://dev-redis:6379');
    expect(env('cards', 'NATS_URL')).toBe('nats://dev-nats:4222');
    for (const name of COMPONENTS) expect(find(dev, 'Deployment', name).spec.replicas).toBe(1);
  });

  it('are absent from the default and production values', () => {
    for (const objects of [render(), renderProfile('production')]) {
      expect(objects.filter((o) => o.metadata.name.startsWith('dev-'))).toEqual([]);
    }
  });
});
