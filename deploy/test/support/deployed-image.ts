// What image.test.ts needs to perform deploy/docker/Dockerfile's steps without Docker: the Dockerfile's
// own commands (so the test runs what the image runs, not a copy that can drift), the pnpm that runs
// them, and readings of a deployed folder (its packages, its files, a fingerprint of its contents).
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { type ComponentName, type Ports, repoRoot } from '@engram/local/components';
import { parse } from 'yaml';

export const DOCKERFILE = join(repoRoot, 'deploy/docker/Dockerfile');

/** What one component's image is: its runtime stage merged with the component's own stage. */
export interface ComponentImage {
  /** ENV, the shared runtime stage's and then the component's. */
  env: Record<string, string>;
  exposed: number[];
  user: string | undefined;
  /** COPY instructions as [source, destination], the shared runtime stage's and then the component's. */
  copies: [string, string][];
}

export interface ImageRecipe {
  /** The runtime stage's CMD, run from /app. */
  command: string[];
  /** The migration command the header documents, run from /app (the chart's Job runs it too). */
  migrateCommand: string[];
  /** The flags of the build stage's `pnpm deploy --filter "@engram/${SERVICE}"`, store flag aside. */
  deployFlags: string[];
  /** The scripts the build stage runs on the deployed folder after `pnpm deploy` (`node <script> /app`). */
  afterDeploy: string[];
  /** Each `runtime-<component>` stage, by component. */
  components: Map<string, ComponentImage>;
}

interface Stage {
  name: string;
  env: Record<string, string>;
  exposed: number[];
  user: string | undefined;
  copies: [string, string][];
}

function readStage(text: string): Stage {
  const lines = (pattern: RegExp) => [...text.matchAll(pattern)].map((m) => (m[1] ?? '').trim());
  return {
    name: /^FROM\s+\S+\s+AS\s+(\S+)/i.exec(text)?.[1] ?? '',
    env: Object.fromEntries(lines(/^ENV\s+(.+)$/gm).map((pair) => pair.split('=', 2) as [string, string])),
    exposed: lines(/^EXPOSE\s+(.+)$/gm).flatMap((ports) => ports.split(/\s+/).map(Number)),
    user: lines(/^USER\s+(.+)$/gm).at(-1),
    copies: lines(/^COPY\s+(.+)$/gm).map((args) => {
      const paths = args.split(/\s+/).filter((arg) => !arg.startsWith('--'));
      return [paths[0] ?? '', paths.at(-1) ?? ''];
    }),
  };
}

export function readImageRecipe(text = readFileSync(DOCKERFILE, 'utf8')): ImageRecipe {
  const joined = text.replace(/\\\r?\n/g, ' ');
  const command = /^CMD\s+(\[.*\])\s*$/m.exec(joined)?.[1];
  const migrate = /^#\s+(\["node",.*"apply".*\])/m.exec(joined)?.[1];
  const deploy = /pnpm deploy --filter "@engram\/\$\{SERVICE\}"((?:\s+--[\w-]+)*?)\s+--store-dir\s/.exec(joined)?.[1];
  const afterDeploy = [...joined.matchAll(/--store-dir \/pnpm\/store \/app((?:\s+&&\s+node\s+\S+\s+\/app)*)/g)].flatMap(
    ([, steps]) => [...(steps ?? '').matchAll(/node\s+(\S+)\s+\/app/g)].map(([, script]) => script as string),
  );
  const stages = joined.split(/^(?=FROM\s)/m).map(readStage);
  const runtime = stages.find((stage) => stage.name === 'runtime');
  if (!command || !migrate || deploy === undefined || !runtime) {
    throw new Error(`${DOCKERFILE}: cannot find its CMD, migration command, pnpm deploy flags or runtime stage`);
  }
  const components = new Map<string, ComponentImage>();
  for (const stage of stages) {
    const name = /^runtime-([a-z]+)$/.exec(stage.name)?.[1];
    if (!name) continue;
    components.set(name, {
      env: { ...runtime.env, ...stage.env },
      exposed: stage.exposed,
      user: stage.user ?? runtime.user,
      copies: [...runtime.copies, ...stage.copies],
    });
  }
  return {
    command: JSON.parse(command) as string[],
    migrateCommand: JSON.parse(migrate) as string[],
    deployFlags: deploy.trim().split(/\s+/),
    afterDeploy,
    components,
  };
}

/** The ports docs/architecture.md gives a component (HTTP, gRPC, metrics), as its image should expose them. */
export function portsOf(name: ComponentName, ports: Ports): number[] {
  if (name === 'gateway') return [ports.gateway, ports.gatewayMetrics];
  const http = { identity: [ports.identityHttp], billing: [ports.billingHttp] } as Partial<Record<string, number[]>>;
  return [...(http[name] ?? []), ports.grpc[name], ports.metrics[name]];
}

/**
 * pnpm's entry script: the one running this test when pnpm started it (`npm test`), else the one
 * scripts/bootstrap.mjs installed at the version package.json pins.
 */
export function pnpmEntry(): string {
  const running = process.env.npm_execpath;
  if (running && /pnpm\.[cm]?js$/.test(running) && existsSync(running)) return running;
  const pinned = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { packageManager: string })
    .packageManager;
  const entry = join(repoRoot, '.cache/toolchain', pinned.replace('@', '-'), 'node_modules/pnpm/bin/pnpm.mjs');
  if (!existsSync(entry)) throw new Error(`no pnpm: ${entry} is missing (npm test installs it)`);
  return entry;
}

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

/** A package's manifest as pnpm sees it: with the workspace's packageExtensions applied. */
function manifestAt(dir: string, extensions: Record<string, Partial<Manifest>>): Manifest {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
  const extension = extensions[manifest.name];
  return {
    ...manifest,
    peerDependenciesMeta: { ...manifest.peerDependenciesMeta, ...extension?.peerDependenciesMeta },
  };
}

function packageExtensions(): Record<string, Partial<Manifest>> {
  const workspace = parse(readFileSync(join(repoRoot, 'pnpm-workspace.yaml'), 'utf8')) as {
    packageExtensions?: Record<string, Partial<Manifest>>;
  };
  return workspace.packageExtensions ?? {};
}

/** Node's lookup of `name` from `dir`: the nearest node_modules/<name> above it, with links resolved. */
function locate(dir: string, name: string): string | undefined {
  for (let at = dir; ; at = dirname(at)) {
    const candidate = join(at, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dirname(at) === at) return undefined;
  }
}

/** Names of the packages a deployed folder installed (pnpm's virtual store, node_modules/.pnpm). */
export function installedPackages(folder: string): string[] {
  return readdirSync(join(folder, 'node_modules/.pnpm'))
    .filter((entry) => entry.indexOf('@', 1) > 0)
    .map((entry) => entry.slice(0, entry.indexOf('@', 1)).replace('+', '/'));
}

/**
 * Names of the packages production needs: the folder's dependencies and, recursively, theirs and their
 * required peers. Optional dependencies and optional peers (pnpm-workspace.yaml's packageExtensions may
 * make a peer optional) are not followed.
 */
export function productionClosure(folder: string): Set<string> {
  const names = new Set<string>();
  const seen = new Set<string>();
  const queue = [realpathSync(folder)];
  const extensions = packageExtensions();
  while (queue.length > 0) {
    const dir = queue.pop() as string;
    if (seen.has(dir)) continue;
    seen.add(dir);
    const manifest = manifestAt(dir, extensions);
    const peers = Object.keys(manifest.peerDependencies ?? {}).filter(
      (peer) => !manifest.peerDependenciesMeta?.[peer]?.optional,
    );
    for (const name of [...Object.keys(manifest.dependencies ?? {}), ...peers]) {
      const found = locate(dir, name);
      if (!found) throw new Error(`${manifest.name} needs ${name}, which ${folder} does not contain`);
      names.add(name);
      queue.push(found);
    }
  }
  return names;
}

/** Every file under `dir` as a path relative to `root`, following no links and skipping `skip` names. */
export function filesUnder(dir: string, root = dir, skip: string[] = []): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (skip.includes(entry.name)) return [];
    return entry.isDirectory() ? filesUnder(path, root, skip) : [relative(root, path)];
  });
}

/** Files of our own code in a deployed folder: its own and the @engram packages it installed. */
export function ownFiles(folder: string): string[] {
  const scope = join(folder, 'node_modules/@engram');
  const packages = existsSync(scope) ? readdirSync(scope) : [];
  return [
    ...filesUnder(folder, folder, ['node_modules']),
    ...packages.flatMap((name) => {
      const dir = realpathSync(join(scope, name));
      return filesUnder(dir, dir, ['node_modules']).map((file) => `node_modules/@engram/${name}/${file}`);
    }),
  ];
}

/** Path, size and modification time of every file and folder under `dir`: equal fingerprints, no writes. */
export function fingerprint(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((path) => {
      const stat = lstatSync(join(dir, path));
      return `${path} ${stat.isDirectory() ? 'dir' : stat.size} ${stat.mtimeMs}`;
    })
    .sort();
}
