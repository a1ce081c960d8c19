// Gives a deployed component (`pnpm deploy --prod --no-optional`, deploy/docker/Dockerfile) the binaries of the
// native addons it uses. Such an addon ships one optional package per platform, and `--no-optional` (which keeps
// the optional peers production never loads out of the image) leaves those out too; the workspace's install has
// the one for the platform it runs on (pnpm installs only matching ones), beside the addon in node_modules/.pnpm.
// It is copied to the same place in the deployed folder, where the addon's loader finds it. Plain JavaScript:
// it runs in the image's build stage. deploy/test/image.test.ts runs it as the Dockerfile does.
//
//   node scripts/deploy-native-addons.mjs <deployed folder>
import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The native addons of Engram's components (the FSRS optimizer in cards). */
const NATIVE_ADDONS = ['@open-spaced-repetition/binding'];

const workspace = join(dirname(fileURLToPath(import.meta.url)), '..');
const [target] = process.argv.slice(2);
if (!target || process.argv.includes('--help')) {
  console.error('usage: node scripts/deploy-native-addons.mjs <deployed folder>');
  process.exit(target ? 0 : 2);
}

/** node_modules/.pnpm entries of `name` in `root` (one per version and peer set). */
const storeEntries = (root, name) => {
  const dir = join(root, 'node_modules/.pnpm');
  const prefix = `${name.replace('/', '+')}@`;
  return existsSync(dir) ? readdirSync(dir).filter((entry) => entry.startsWith(prefix)) : [];
};

for (const addon of NATIVE_ADDONS) {
  for (const entry of storeEntries(target, addon)) {
    const deployed = join(target, 'node_modules/.pnpm', entry, 'node_modules');
    const installed = join(workspace, 'node_modules/.pnpm', entry, 'node_modules');
    const manifest = JSON.parse(readFileSync(join(deployed, addon, 'package.json'), 'utf8'));
    const binaries = Object.keys(manifest.optionalDependencies ?? {}).filter((name) =>
      existsSync(join(installed, name)),
    );
    if (binaries.length === 0) {
      console.error(`${addon} (${entry}): the workspace has no binary of it for ${process.platform}-${process.arch}`);
      process.exit(1);
    }
    for (const name of binaries) {
      cpSync(join(installed, name), join(deployed, name), { recursive: true, dereference: true });
      console.log(`${entry}: added ${name}`);
    }
  }
}
