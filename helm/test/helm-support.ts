// Runs the real Helm 3 binary (fetched once by helm/tools/fetch-helm.ts) against helm/engram and parses what
// it renders, so the chart tests read Kubernetes objects instead of text.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { chartDir } from '../tools/chart-readme.ts';
import { ensureHelm } from '../tools/fetch-helm.ts';

export { chartDir };

export type Profile = 'default' | 'dev' | 'production';
export const PROFILES: Profile[] = ['default', 'dev', 'production'];

/** A rendered Kubernetes object, loosely typed: tests look into it by path. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  // biome-ignore lint/suspicious/noExplicitAny: rendered manifests are arbitrary JSON; tests assert their shape
  [field: string]: any;
}

export function valuesFiles(profile: Profile): string[] {
  return profile === 'default' ? [] : [join(chartDir, `values-${profile}.yaml`)];
}

export interface HelmOptions {
  values?: string[];
  set?: string[];
  setString?: string[];
  /** Values written to a temporary JSON file and passed with -f (exact types, unlike --set). */
  json?: unknown;
}

/** Runs helm with the values options turned into flags; a JSON values file lives only for the call. */
function helmWithValues(command: string[], options: HelmOptions): HelmResult {
  const files = [...(options.values ?? [])];
  const dir = options.json === undefined ? undefined : mkdtempSync(join(tmpdir(), 'engram-values-'));
  try {
    if (dir) {
      files.push(join(dir, 'values.json'));
      writeFileSync(join(dir, 'values.json'), JSON.stringify(options.json));
    }
    return helm([
      ...command,
      ...files.flatMap((file) => ['-f', file]),
      ...(options.set ?? []).flatMap((s) => ['--set', s]),
      ...(options.setString ?? []).flatMap((s) => ['--set-string', s]),
    ]);
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

export interface HelmResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function helm(args: string[]): HelmResult {
  const result = spawnSync(ensureHelm(), args, { encoding: 'utf8' });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

export function helmTemplate(options: HelmOptions = {}): HelmResult {
  return helmWithValues(['template', 'engram', chartDir, '--namespace', 'engram'], options);
}

export function helmLint(options: HelmOptions = {}): HelmResult {
  return helmWithValues(['lint', '--strict', chartDir], options);
}

/** Renders the chart and returns every object; throws with Helm's message when rendering fails. */
export function render(options: HelmOptions = {}): KubeObject[] {
  const result = helmTemplate(options);
  if (result.status !== 0) throw new Error(`helm template failed:\n${result.stderr}`);
  return parseAllDocuments(result.stdout)
    .map((doc) => {
      if (doc.errors.length > 0) throw new Error(`helm rendered invalid YAML: ${doc.errors[0]?.message}`);
      return doc.toJS() as KubeObject | null;
    })
    .filter((object): object is KubeObject => object !== null);
}

export function renderProfile(profile: Profile, options: HelmOptions = {}): KubeObject[] {
  return render({ ...options, values: [...valuesFiles(profile), ...(options.values ?? [])] });
}

export function find(objects: KubeObject[], kind: string, name: string): KubeObject {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found)
    throw new Error(`no ${kind} ${name} among ${objects.map((o) => `${o.kind}/${o.metadata.name}`).join(', ')}`);
  return found;
}

export function ofKind(objects: KubeObject[], kind: string): KubeObject[] {
  return objects.filter((o) => o.kind === kind);
}
