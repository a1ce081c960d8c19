// Image name = Helm values key = Kubernetes Service name = folder name (docs/architecture.md#names). These tests hold
// skaffold.yaml, the Helm chart (values, schema and what the real helm renders), the Dockerfile and the
// workspace to the same set of components, each image built from the one Dockerfile with SERVICE=<name>,
// and hold the chart's ports to deploy/local's DEFAULT_PORTS (docs/architecture.md#conventions).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_PORTS, repoRoot } from '@engram/local/components';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  CHART_DIR,
  containersOf,
  DOCKERFILE,
  dockerfileCopyOwners,
  dockerfileRuntimeStages,
  dockerfileServices,
  dockerfileUser,
  isRecord,
  type Json,
  type K8sObject,
  readText,
  readYaml,
  renderChart,
  resolveRef,
  workspaceComponents,
} from './support/delivery-sources.ts';

const components = workspaceComponents();
const skaffold = readYaml('skaffold.yaml');

interface Artifact {
  image: string;
  context?: string;
  docker?: { dockerfile?: string; buildArgs?: Record<string, string> };
}
interface Release {
  name: string;
  chartPath: string;
  setValueTemplates: Record<string, string>;
}
interface Profile {
  name: string;
  patches?: { op: string; path: string; value?: unknown }[];
  portForward?: { resourceType: string; resourceName: string; namespace?: string; port: number; localPort: number }[];
}
const artifacts = (skaffold.build as { artifacts: Artifact[] }).artifacts;
const releases = (skaffold.deploy as { helm: { releases: Release[] } }).helm.releases;
const profiles = skaffold.profiles as Profile[];
const profile = (name: string) => profiles.find((p) => p.name === name);

/** The ports each component listens on, by port name, as docs/architecture.md and deploy/local define them. */
function expectedPorts(name: string): Record<string, number> {
  if (name === 'gateway') return { http: DEFAULT_PORTS.gateway, metrics: DEFAULT_PORTS.gatewayMetrics };
  const service = name as keyof typeof DEFAULT_PORTS.grpc;
  const http = { identity: DEFAULT_PORTS.identityHttp, billing: DEFAULT_PORTS.billingHttp }[name as string];
  return {
    grpc: DEFAULT_PORTS.grpc[service],
    metrics: DEFAULT_PORTS.metrics[service],
    ...(http !== undefined && { http }),
  };
}

describe('the workspace', () => {
  it('has the components that deploy/local gives ports to', () => {
    expect(components).toEqual(['gateway', ...Object.keys(DEFAULT_PORTS.grpc)].sort());
  });
});

describe('skaffold.yaml', () => {
  it('builds one image per component, named after it', () => {
    expect(artifacts.map((a) => a.image).sort()).toEqual(components);
  });

  it.each(components)('builds %s from the shared Dockerfile with SERVICE set to its name', (name) => {
    const artifact = artifacts.find((a) => a.image === name);
    expect(artifact).toMatchObject({ context: '.', docker: { dockerfile: DOCKERFILE, buildArgs: { SERVICE: name } } });
    expect(existsSync(join(repoRoot, DOCKERFILE)), `${DOCKERFILE} exists`).toBe(true);
  });

  it('deploys the chart in helm/engram as one release', () => {
    expect(releases.map((r) => [r.name, r.chartPath])).toEqual([['engram', 'helm/engram']]);
    expect(existsSync(join(CHART_DIR, 'Chart.yaml')), 'helm/engram/Chart.yaml exists').toBe(true);
  });

  it('sets exactly each component’s image.repository and image.tag from its own artifact', () => {
    const expected = Object.fromEntries(
      components.flatMap((name) => [
        [`${name}.image.repository`, `{{.IMAGE_REPO_${name}}}`],
        [`${name}.image.tag`, `{{.IMAGE_TAG_${name}}}@{{.IMAGE_DIGEST_${name}}}`],
      ]),
    );
    expect(releases[0]?.setValueTemplates).toEqual(expected);
  });

  it.each(['dev', 'production'])('the %s profile adds a values file of the chart that exists', (name) => {
    const patch = profile(name)?.patches?.find((p) => p.path === '/deploy/helm/releases/0/valuesFiles');
    expect(patch?.value).toEqual([`helm/engram/values-${name}.yaml`]);
    expect(existsSync(join(CHART_DIR, `values-${name}.yaml`)), `values-${name}.yaml exists`).toBe(true);
  });

  it('the dev profile syncs files into the gateway artifact only, into the folder the gateway serves', () => {
    const syncPatches = profile('dev')?.patches?.filter((p) => /^\/build\/artifacts\/\d+\/sync$/.test(p.path)) ?? [];
    const targets = syncPatches.map((p) => artifacts[Number(p.path.split('/')[3])]?.image);
    expect(targets).toEqual(['gateway']);
    const webDir = /^ENV\s+(?:.*\s)?WEB_DIST_DIR=(\S+)/m.exec(readText(DOCKERFILE))?.[1];
    const rules = (syncPatches[0]?.value as { manual?: { src: string; dest: string }[] } | undefined)?.manual ?? [];
    expect(rules).not.toEqual([]);
    expect(rules.map((r) => r.dest)).toEqual(rules.map(() => webDir ?? 'WEB_DIST_DIR is not set in the Dockerfile'));
  });
});

describe('the chart', () => {
  const values = () => readYaml('helm/engram/values.yaml');

  it.each(components)('values.yaml has %s with an image.repository named after it and an image.tag', (name) => {
    expect(values()[name]).toMatchObject({
      image: { repository: expect.stringMatching(new RegExp(`(^|/)${name}$`)), tag: expect.any(String) },
    });
  });

  it('values.yaml has an image of ours under no key but a component', () => {
    const ours = Object.entries(values())
      .filter(([, v]) => isRecord(v) && isRecord(v.image) && /engram/.test(String(v.image.repository)))
      .map(([key]) => key);
    expect(ours.sort()).toEqual(components);
  });

  it('values.schema.json describes an image.repository and image.tag for each component and no other key', () => {
    const schema = JSON.parse(readText('helm/engram/values.schema.json')) as Json;
    const propertiesOf = (node: unknown): Json => {
      const properties = resolveRef(schema, node ?? {}).properties;
      return isRecord(properties) ? properties : {};
    };
    const described = Object.entries(propertiesOf(schema))
      .filter(([, node]) => {
        const image = propertiesOf(propertiesOf(node).image);
        return 'repository' in image && 'tag' in image;
      })
      .map(([key]) => key);
    expect(described.sort()).toEqual(components);
  });
});

describe('the rendered chart', () => {
  const digest = `sha256:${'0123456789abcdef'.repeat(4)}`;
  let objects: K8sObject[];

  // What skaffold passes for each artifact (setValueTemplates above), with a registry no default uses.
  beforeAll(() => {
    const set = components.flatMap((name) => [
      '--set-string',
      `${name}.image.repository=registry.test/${name},${name}.image.tag=dev-1@${digest}`,
    ]);
    objects = renderChart(set);
  });
  const named = (kind: string) => objects.filter((o) => o.kind === kind);

  it('has one Deployment and one Service per component, named after it', () => {
    expect(
      named('Deployment')
        .map((o) => o.metadata.name)
        .sort(),
    ).toEqual(components);
    expect(
      named('Service')
        .map((o) => o.metadata.name)
        .sort(),
    ).toEqual(components);
  });

  it.each(components)('runs %s in a container of its own name from the image skaffold built for it', (name) => {
    const deployment = named('Deployment').find((o) => o.metadata.name === name);
    const container = deployment && containersOf(deployment).find((c) => c.name === name);
    expect(container?.image).toBe(`registry.test/${name}:dev-1@${digest}`);
  });

  it('uses each built image only in workloads of the component it was built for', () => {
    const misplaced = objects.flatMap((o) =>
      containersOf(o)
        .filter((c) => c.image.startsWith('registry.test/'))
        .map((c) => ({ object: `${o.kind}/${o.metadata.name}`, image: c.image }))
        .filter(({ image }) => !components.some((n) => image === `registry.test/${n}:dev-1@${digest}`)),
    );
    expect(misplaced).toEqual([]);
  });

  it.each(components)('gives %s the container ports of DEFAULT_PORTS, by name', (name) => {
    const deployment = named('Deployment').find((o) => o.metadata.name === name);
    const container = deployment && containersOf(deployment).find((c) => c.name === name);
    const ports = Object.fromEntries((container?.ports ?? []).map((p) => [p.name, p.containerPort]));
    expect(ports).toEqual(expectedPorts(name));
  });

  it.each(components)('exposes %s on its Service at the ports of DEFAULT_PORTS', (name) => {
    const service = named('Service').find((o) => o.metadata.name === name);
    const ports = (service?.spec?.ports ?? []) as { name: string; port: number }[];
    const expected = expectedPorts(name);
    for (const port of ports) expect(port.port, `${name} Service port ${port.name}`).toBe(expected[port.name]);
    const served = ports.map((p) => p.name);
    for (const required of ['http', 'grpc'].filter((p) => p in expected)) expect(served).toContain(required);
  });

  it.each(components)('tells %s the ports and peer addresses of DEFAULT_PORTS in its environment', (name) => {
    const deployment = named('Deployment').find((o) => o.metadata.name === name);
    const container = deployment && containersOf(deployment).find((c) => c.name === name);
    const env = Object.fromEntries((container?.env ?? []).map((e) => [e.name, e.value]));
    const expected = expectedPorts(name);
    const listen: Record<string, number | undefined> =
      name === 'gateway'
        ? { PORT: expected.http, METRICS_PORT: expected.metrics }
        : { GRPC_PORT: expected.grpc, METRICS_PORT: expected.metrics, HTTP_PORT: expected.http };
    for (const [key, port] of Object.entries(listen)) if (port !== undefined) expect(env[key], key).toBe(String(port));
    for (const [key, value] of Object.entries(env)) {
      const peer = /^([A-Z]+)_ADDR$/.exec(key)?.[1]?.toLowerCase();
      if (peer) expect(value, key).toBe(`${peer}:${expectedPorts(peer).grpc}`);
    }
    if ('IDENTITY_HTTP_URL' in env) expect(env.IDENTITY_HTTP_URL).toBe(`http://identity:${DEFAULT_PORTS.identityHttp}`);
    if ('BILLING_HTTP_URL' in env) expect(env.BILLING_HTTP_URL).toBe(`http://billing:${DEFAULT_PORTS.billingHttp}`);
  });

  it('forwards the dev profile’s localhost:3000 to the gateway Service’s HTTP port, and localhost:4570 to the S3 stand-in of cards', () => {
    const forward = profile('dev')?.portForward;
    const gateway = named('Service').find((o) => o.metadata.name === 'gateway');
    const http = ((gateway?.spec?.ports ?? []) as { name: string; port: number }[]).find((p) => p.name === 'http');
    expect(forward).toEqual([
      { resourceType: 'service', resourceName: 'gateway', namespace: 'engram', port: http?.port, localPort: 3000 },
      {
        resourceType: 'deployment',
        resourceName: 'cards',
        namespace: 'engram',
        port: DEFAULT_PORTS.mediaStandIn,
        localPort: DEFAULT_PORTS.mediaStandIn,
      },
    ]);
    expect(http?.port).toBe(DEFAULT_PORTS.gateway);
  });
});

describe('the dev profile against the chart', () => {
  let objects: K8sObject[];
  beforeAll(() => {
    objects = renderChart(['-f', join(CHART_DIR, 'values-dev.yaml')]);
  });
  const container = (name: string) => {
    const deployment = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === name);
    return deployment && containersOf(deployment).find((c) => c.name === name);
  };

  // Skaffold syncs by running tar in the container: that needs a writable root filesystem in dev.
  it('leaves the gateway’s root filesystem writable in the dev values, where the dev profile syncs files', () => {
    expect(container('gateway'), 'the gateway container').toBeDefined();
    expect(container('gateway')?.securityContext?.readOnlyRootFilesystem).not.toBe(true);
  });

  // deploy/README.md's web loop: Vite on the developer's machine proxies /api to the forwarded gateway.
  it('lets identity trust the Vite dev server’s origin in the dev values', () => {
    const vitePort = /server:\s*{[^}]*\bport:\s*(\d+)/.exec(readText('web/vite.config.ts'))?.[1];
    const origins = container('identity')
      ?.env?.find((e) => e.name === 'AUTH_TRUSTED_ORIGINS')
      ?.value?.split(',');
    expect(vitePort, 'server.port in web/vite.config.ts').toBeDefined();
    expect(origins ?? [], 'AUTH_TRUSTED_ORIGINS of identity').toContain(`http://localhost:${vitePort}`);
  });

  it('syncs nothing in the production profile or without a profile', () => {
    expect(artifacts.filter((a) => 'sync' in a).map((a) => a.image)).toEqual([]);
    expect(profile('production')?.patches?.filter((p) => p.path.includes('/sync')) ?? []).toEqual([]);
  });
});

describe('the Dockerfile', () => {
  it('takes the component as the SERVICE build argument', () => {
    expect(readText(DOCKERFILE)).toMatch(/^ARG\s+SERVICE\b/m);
  });

  it('has a final stage for exactly the workspace’s components', () => {
    expect(dockerfileRuntimeStages(readText(DOCKERFILE))).toEqual(components);
  });

  // Skaffold syncs as the container's user, so it can only replace files that user owns.
  it('gives the image’s user the folder the dev profile syncs into', () => {
    const dockerfile = readText(DOCKERFILE);
    const rules = profile('dev')?.patches?.flatMap((p) =>
      p.path.endsWith('/sync') ? ((p.value as { manual?: { dest: string }[] }).manual ?? []) : [],
    );
    const destinations = [...new Set(rules?.map((r) => r.dest))];
    expect(destinations).not.toEqual([]);
    for (const destination of destinations) {
      expect(dockerfileCopyOwners(dockerfile, destination), destination).toEqual([dockerfileUser(dockerfile)]);
    }
  });

  it('accepts exactly the workspace’s components as SERVICE', () => {
    expect(dockerfileServices(readText(DOCKERFILE))).toEqual(components);
  });
});
