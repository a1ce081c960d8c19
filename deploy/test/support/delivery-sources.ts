// Reads the names every delivery artefact gives the components: the workspace folders, skaffold.yaml,
// the Helm chart (values, schema, and the manifests the real helm renders) and the Dockerfile. The
// cross-check in delivery-names.test.ts compares them; keeping the parsing here keeps that test readable.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureHelm } from '@engram/helm/fetch-helm';
import { repoRoot } from '@engram/local/components';
import { parse, parseAllDocuments } from 'yaml';

export const CHART_DIR = join(repoRoot, 'helm/engram');
export const DOCKERFILE = 'deploy/docker/Dockerfile';

export type Json = Record<string, unknown>;

export function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function readText(relativePath: string): string {
  return readFileSync(join(repoRoot, relativePath), 'utf8');
}

export function readYaml(relativePath: string): Json {
  const parsed: unknown = parse(readText(relativePath));
  if (!isRecord(parsed)) throw new Error(`${relativePath} is not a YAML mapping`);
  return parsed;
}

/** The component names the repository itself defines: gateway/ and every services/<name>/ package. */
export function workspaceComponents(): string[] {
  const services = readdirSync(join(repoRoot, 'services'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(repoRoot, 'services', entry.name, 'package.json')))
    .map((entry) => entry.name);
  return ['gateway', ...services].sort();
}

/** Follows a local `$ref` ("#/$defs/x") of a JSON schema, as many times as it takes. */
export function resolveRef(schema: Json, node: unknown): Json {
  let current = node;
  for (let hops = 0; isRecord(current) && typeof current.$ref === 'string'; hops++) {
    if (hops > 20) throw new Error(`$ref cycle at ${current.$ref}`);
    const path = current.$ref.replace(/^#\/?/, '').split('/').filter(Boolean);
    current = path.reduce<unknown>((at, key) => (isRecord(at) ? at[key] : undefined), schema);
  }
  if (!isRecord(current)) throw new Error('schema node is not an object');
  return current;
}

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; annotations?: Record<string, string> };
  spec?: Json;
}

/** `helm template` with the real helm binary (helm/tools/fetch-helm.ts), parsed into objects. */
export function renderChart(args: string[]): K8sObject[] {
  const output = execFileSync(ensureHelm(), ['template', 'engram', CHART_DIR, '--namespace', 'engram', ...args], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return parseAllDocuments(output)
    .map((document) => document.toJS() as unknown)
    .filter((object): object is K8sObject => isRecord(object) && typeof object.kind === 'string');
}

export interface Container {
  name: string;
  image: string;
  ports?: { name?: string; containerPort: number }[];
  env?: { name: string; value?: string }[];
  securityContext?: { readOnlyRootFilesystem?: boolean };
}

/** The containers (init containers included) of a workload's pod template. */
export function containersOf(object: K8sObject): Container[] {
  const template = isRecord(object.spec?.template) ? object.spec.template : undefined;
  const podSpec = isRecord(template?.spec) ? template.spec : undefined;
  const lists = [podSpec?.initContainers, podSpec?.containers].filter(Array.isArray) as Container[][];
  return lists.flat();
}

/** The components the Dockerfile has a final stage for (`FROM ... AS runtime-<name>`, picked by SERVICE). */
export function dockerfileRuntimeStages(dockerfile: string): string[] {
  return [...dockerfile.matchAll(/^FROM\s+\S+\s+AS\s+runtime-([a-z0-9-]+)\s*$/gim)].map((m) => m[1] ?? '').sort();
}

/** The user the image runs as (`USER 10001:10001` gives '10001'). */
export function dockerfileUser(dockerfile: string): string | undefined {
  return [...dockerfile.matchAll(/^USER\s+([^\s:]+)/gim)].at(-1)?.[1];
}

/** The `--chown` owner of each COPY into `destination` ('' for a COPY without --chown). */
export function dockerfileCopyOwners(dockerfile: string, destination: string): string[] {
  return dockerfile
    .split('\n')
    .filter((line) => /^COPY\s/i.test(line) && line.trim().split(/\s+/).at(-1) === destination)
    .map((line) => /--chown=([^\s:]+)/.exec(line)?.[1] ?? '');
}

/**
 * The SERVICE values the Dockerfile accepts, from the names it spells out: the branches of a
 * `case "$SERVICE"` (or `${SERVICE}`) statement. Returns [] when there is no such statement.
 */
export function dockerfileServices(dockerfile: string): string[] {
  const joined = dockerfile.replace(/\\\r?\n/g, ' ');
  const match = /case\s+"?\$\{?SERVICE\}?"?\s+in\b([\s\S]*?)\besac\b/.exec(joined);
  if (!match?.[1]) return [];
  const names = new Set<string>();
  for (const branch of match[1].matchAll(/(?:^|;;|\bin\b)\s*\(?\s*([a-z0-9|\s*-]+?)\s*\)/g)) {
    for (const name of (branch[1] ?? '').split('|').map((n) => n.trim())) {
      if (/^[a-z][a-z0-9-]*$/.test(name)) names.add(name);
    }
  }
  return [...names].sort();
}
