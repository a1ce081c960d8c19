// The container image's production steps, performed without Docker (no engine runs here): the build
// stage's `pnpm deploy` of a service and of the gateway into temporary folders, then each folder started
// as the runtime stage starts it (its CMD, NODE_ENV=production, what the chart gives it) until it reports
// ready, and stopped with SIGTERM. The commands come from deploy/docker/Dockerfile itself. The build is
// `npm test`'s first step (`pnpm run build:all`), so dist/ folders already exist here.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { generateStandInCredentials } from '@engram/kit/storage/stand-in-credentials';
import {
  type ComponentName,
  componentEnvironments,
  DEFAULT_PORTS,
  MIGRATED_SERVICES,
  metricsPortOf,
  repoRoot,
  type StackSettings,
} from '@engram/local/components';
import { type S3StandIn, startS3StandIn } from '@engram/stand-ins/s3';
import { type SesFake, startSesFake } from '@engram/testkit/ses-fake';
import { freshStackSettings } from '@engram/testkit/stack';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as image from './support/deployed-image.ts';

// Services before the gateway, as the stack starts them. identity carries the most optional peers
// (better-auth's) that `--no-optional` leaves out, so it is deployed and started too.
const DEPLOYED: ComponentName[] = ['identity', 'cards', 'gateway'];
/** Deployed to check what they hold, not started: billing, whose Stripe stand-in must stay out of its image. */
const PACKAGED: ComponentName[] = [...DEPLOYED, 'billing'];
const MIGRATED = DEPLOYED.filter((name) => (MIGRATED_SERVICES as readonly string[]).includes(name));
const STEP_MS = 120_000; // bounds every command and wait; pnpm deploy from the local store takes seconds
const recipe = image.readImageRecipe();

// Tools that must never reach an image; each is a devDependency somewhere in the workspace.
const DEV_ONLY = ['vitest', 'typescript', 'prisma', '@prisma/schema-engine-wasm', 'esbuild', 'vite', 'ts-proto'];
const DEV_ONLY_OURS = [
  '@engram/testkit',
  '@engram/local',
  '@engram/stand-ins',
  '@biomejs/biome',
  '@bufbuild/buf',
  'playwright-core',
];
/** What the stand-ins' code says of itself (@engram/stand-ins): a header on every S3 answer, Stripe's fake key. */
const STAND_IN_MARKS = ['x-engram-stand-in', 'sk_test_engram_stand_in'];

function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }) {
  return new Promise<{ code: number; output: string }>((resolve) => {
    execFile(command, args, { ...options, timeout: STEP_MS, maxBuffer: 16 << 20 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) || 1 : 0, output: `${stdout}${stderr}` }),
    );
  });
}

interface Started {
  child: ChildProcess;
  lines: string[];
  closed: Promise<number | null>;
}

function start(folder: string, env: Record<string, string>): Started {
  const [node, ...args] = recipe.command;
  if (node !== 'node') throw new Error(`the image's CMD starts ${node}, not node`);
  const child = spawn(process.execPath, args, { cwd: folder, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  for (const stream of [child.stdout, child.stderr])
    createInterface({ input: stream }).on('line', (l) => lines.push(l));
  const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
  return { child, lines, closed };
}

async function readyz(port: number, started: Started): Promise<number> {
  const deadline = Date.now() + STEP_MS;
  while (Date.now() < deadline) {
    if (started.child.exitCode !== null) throw new Error(`exited early:\n${started.lines.slice(-20).join('\n')}`);
    const status = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(2_000) }).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return status;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`not ready within ${STEP_MS / 1000} s:\n${started.lines.slice(-20).join('\n')}`);
}

async function terminate({ child, closed }: Started): Promise<number | null> {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const code = await closed;
  clearTimeout(timer);
  return code;
}

const work = mkdtempSync(join(tmpdir(), 'engram-image-'));
const folderOf = (name: ComponentName) => join(work, name);
/** A path in the image as it is here: the deployed folder stands for /app. */
const inFolder = (name: ComponentName, path: string) => path.replace(/^\/app(?=\/|$)/, folderOf(name));
const imageOf = (name: string) => {
  const found = recipe.components.get(name);
  if (!found) throw new Error(`deploy/docker/Dockerfile has no runtime-${name} stage`);
  return found;
};
let settings: StackSettings;
let dropDatabase: (() => Promise<void>) | undefined;
let environments: Map<ComponentName, Record<string, string>>;
/** Production has no dev mailbox: identity sends through SES, here a fake of it. */
let ses: SesFake | undefined;
/** Nor a local store: cards keeps card files in an S3 bucket, here the S3 stand-in run apart, as S3 is. */
let s3: S3StandIn | undefined;
const running = new Map<ComponentName, Started>();
const fingerprints = new Map<ComponentName, string[]>();

beforeAll(async () => {
  const built = [
    'packages/kit/dist',
    'proto/dist',
    'web/dist/index.html',
    ...PACKAGED.map((n) => `${n === 'gateway' ? n : `services/${n}`}/dist/main.js`),
  ];
  const missing = built.filter((path) => !existsSync(join(repoRoot, path)));
  if (missing.length > 0) throw new Error(`not built (${missing.join(', ')}): run \`pnpm run build:all\` first`);
  // The build stage: one deploy per component, side by side.
  const deploys = await Promise.all(
    PACKAGED.map((name) =>
      run(
        process.execPath,
        [image.pnpmEntry(), 'deploy', '--filter', `@engram/${name}`, ...recipe.deployFlags, folderOf(name)],
        { cwd: repoRoot },
      ),
    ),
  );
  deploys.forEach(({ code, output }, i) => {
    if (code !== 0) throw new Error(`pnpm deploy of ${PACKAGED[i]} failed (${code}):\n${output}`);
  });
  // What the build stage runs on the deployed folder next (the native addons' binaries).
  for (const name of PACKAGED) {
    for (const script of recipe.afterDeploy) {
      const { code, output } = await run(process.execPath, [join(repoRoot, script), folderOf(name)], { cwd: repoRoot });
      if (code !== 0) throw new Error(`${script} on ${name} failed (${code}):\n${output}`);
    }
  }
  // The gateway's stage adds the web build (its COPY from the build stage's web/dist).
  const webCopies = imageOf('gateway').copies.filter(([source]) => source.endsWith('/web/dist'));
  for (const [, destination] of webCopies) {
    cpSync(join(repoRoot, 'web/dist'), inFolder('gateway', destination), { recursive: true });
  }

  const fresh = await freshStackSettings({ label: 'image' });
  settings = fresh.settings;
  dropDatabase = fresh.dropDatabase;
  mkdirSync(join(work, 'tmp'));
  ses = await startSesFake();
  // The stand-in plays S3 here: cards reaches it as a bucket, with credentials from the SDK's chain.
  const s3Credentials = generateStandInCredentials();
  s3 = await startS3StandIn({
    dir: join(work, 's3'),
    port: 0,
    nodeEnv: 'test',
    credentials: s3Credentials,
    buckets: ['engram-media'],
  });
  const outside: Partial<Record<ComponentName, Record<string, string>>> = {
    cards: {
      MEDIA_S3_BUCKET: 'engram-media',
      MEDIA_S3_ENDPOINT: s3.url,
      AWS_ACCESS_KEY_ID: s3Credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3Credentials.secretAccessKey,
    },
    identity: {
      SES_REGION: 'eu-west-1',
      SES_ENDPOINT: ses.url,
      MAIL_FROM: 'Engram <no-reply@engram.example>',
      AWS_ACCESS_KEY_ID: 'AKIAENGRAMIMAGE',
      AWS_SECRET_ACCESS_KEY: 'not-a-real-secret',
    },
  };
  environments = new Map(
    componentEnvironments(settings).map(([name, env]) => [
      name,
      {
        PATH: process.env.PATH ?? '',
        TMPDIR: join(work, 'tmp'), // the chart's emptyDir at /tmp, the only writable place
        // The image's ENV first: a pod's variables override it.
        ...Object.fromEntries(Object.entries(imageOf(name).env).map(([key, value]) => [key, inFolder(name, value)])),
        ...env,
        ...outside[name],
        NODE_ENV: 'production',
        SERVICE_VERSION: 'image-test',
      },
    ]),
  );
}, 4 * STEP_MS);

afterAll(async () => {
  await Promise.all([...running.values()].map(terminate));
  await dropDatabase?.();
  await ses?.stop();
  await s3?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('the Dockerfile', () => {
  it.each(Object.keys(DEFAULT_PORTS.grpc).concat('gateway') as ComponentName[])(
    'runs %s with NODE_ENV=production as a numeric non-root user, exposing its ports from docs/architecture.md',
    (name) => {
      const { env, user, exposed } = imageOf(name);
      expect(env.NODE_ENV).toBe('production');
      expect(user).toMatch(/^[1-9]\d*(:\d+)?$/);
      expect(exposed.sort()).toEqual(image.portsOf(name, DEFAULT_PORTS).sort());
    },
  );
});

describe.each(PACKAGED)('pnpm deploy of %s', (name) => {
  it('holds its build, its migrations and its production dependencies, nothing else', () => {
    const expected = ['dist', 'node_modules', 'package.json', 'pnpm-lock.yaml', 'pnpm-workspace.yaml'];
    if ((MIGRATED_SERVICES as readonly string[]).includes(name)) expected.push('prisma');
    if (name === 'gateway') expected.push('web');
    expect(readdirSync(folderOf(name)).sort()).toEqual(expected.sort());
    const own = image.ownFiles(folderOf(name));
    expect(own.filter((f) => /\.[cm]?ts$|(^|\/)(src|test|tsconfig\.json)(\/|$)/.test(f))).toEqual([]);
    expect(own).toContain('node_modules/@engram/kit/dist/migrate-cli.js');
  });

  it('installs exactly what production needs: no devDependency, no optional extra', () => {
    const installed = image.installedPackages(folderOf(name));
    expect(installed.filter((p) => [...DEV_ONLY, ...DEV_ONLY_OURS].includes(p))).toEqual([]);
    const needed = image.productionClosure(folderOf(name));
    expect(installed.filter((p) => !needed.has(p))).toEqual([]);
  });

  it('holds no stand-in: the local S3 and Stripe stand-ins stay in development', () => {
    const scripts = image.ownFiles(folderOf(name)).filter((file) => file.endsWith('.js'));
    const marked = scripts.filter((file) => {
      const text = readFileSync(join(folderOf(name), file), 'utf8');
      return STAND_IN_MARKS.some((mark) => text.includes(mark));
    });
    expect(marked).toEqual([]);
  });
});

describe('the deployed cards', () => {
  it('re-encodes an image with the sharp its image ships (the WebAssembly build: the native ones are optional packages the image leaves out)', async () => {
    const script = [
      "const sharp = (await import('sharp')).default;",
      "const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3a7' } }).png().toBuffer();",
      'const out = await sharp(png).resize({ width: 32 }).jpeg().toBuffer();',
      'const { width, format } = await sharp(out).metadata();',
      'console.log(JSON.stringify({ width, format }));',
    ].join('\n');
    const { code, output } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: folderOf('cards'),
      env: environments.get('cards') as Record<string, string>,
    });
    expect(code, output).toBe(0);
    expect(JSON.parse(output.trim().split('\n').at(-1) ?? '{}')).toEqual({ width: 32, format: 'jpeg' });
  });
});

describe('the deployed cards, fitting FSRS parameters', () => {
  it('runs the optimizer its image ships (the native binary for its platform, copied in after the deploy)', async () => {
    expect(recipe.afterDeploy).toEqual(['scripts/deploy-native-addons.mjs']);
    const script = [
      "const { computeParameters, FSRSBindingItem, FSRSBindingReview } = await import('@open-spaced-repetition/binding');",
      'const items = [];',
      'for (let i = 0; i < 400; i++) items.push(new FSRSBindingItem([new FSRSBindingReview(1 + (i % 4), 0), new FSRSBindingReview(3, 1 + (i % 5))]));',
      'const w = await computeParameters(items, { enableShortTerm: true, timeout: 50 });',
      'console.log(JSON.stringify({ parameters: w.length }));',
    ].join('\n');
    const { code, output } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: folderOf('cards'),
      env: environments.get('cards') as Record<string, string>,
    });
    expect(code, output).toBe(0);
    expect(JSON.parse(output.trim().split('\n').at(-1) ?? '{}')).toEqual({ parameters: 21 });
  });
});

describe.each(MIGRATED)('the deployed %s service', (name) => {
  it("migrates its schema with the image's migration command, as the chart's Job runs it", async () => {
    const [node, ...args] = recipe.migrateCommand;
    expect(node).toBe('node');
    const env = environments.get(name) as Record<string, string>;
    const { code, output } = await run(process.execPath, args, { cwd: folderOf(name), env });
    expect(code, output).toBe(0);
    const client = new pg.Client({ connectionString: settings.databaseUrl });
    await client.connect();
    const applied = await client
      .query<{ migration_name: string }>(
        `select migration_name from "${name}"._prisma_migrations where finished_at is not null`,
      )
      .finally(() => client.end());
    const folders = readdirSync(join(folderOf(name), 'prisma/migrations'), { withFileTypes: true });
    const migrations = folders.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    expect(applied.rows.map((row) => row.migration_name).sort()).toEqual(migrations.sort());
  });
});

describe.each(DEPLOYED)('the deployed %s, started as its image starts it', (name) => {
  it(
    'reports ready on its metrics port with production settings',
    async () => {
      fingerprints.set(name, image.fingerprint(folderOf(name)));
      const started = start(folderOf(name), environments.get(name) as Record<string, string>);
      running.set(name, started);
      expect(await readyz(metricsPortOf(name, settings.ports), started)).toBe(200);
    },
    STEP_MS + 5_000,
  );

  if (name === 'gateway') {
    it('serves the web app from WEB_DIST_DIR', async () => {
      const response = await fetch(`http://127.0.0.1:${settings.ports.gateway}/`, { headers: { accept: 'text/html' } });
      expect(response.status).toBe(200);
      // index.html as built, with the landing page's own head filled in from the build's page-heads.json.
      const html = await response.text();
      const built = readFileSync(join(repoRoot, 'web/dist/index.html'), 'utf8');
      const entry = /<script type="module"[^>]*><\/script>/.exec(built)?.[0] ?? 'no entry script in index.html';
      expect(html).toContain(entry);
      const [landing] = JSON.parse(readFileSync(join(repoRoot, 'web/dist/page-heads.json'), 'utf8')) as {
        title: string;
      }[];
      expect(html).toContain(`<title>${landing?.title}</title>`);
    });
  }
});

describe('every deployed component, sent SIGTERM', () => {
  const exits = new Map<ComponentName, number | null>();
  // All at once: each keeps serving through a production drain of a few seconds before it exits.
  beforeAll(async () => {
    await Promise.all(
      [...running].map(async ([name, started]) => {
        exits.set(name, await terminate(started));
        running.delete(name);
      }),
    );
  }, 45_000);

  it.each(DEPLOYED)('%s exits with code 0, having written nothing under its folder', (name) => {
    expect(exits.get(name), `${name} was running`).toBe(0);
    expect(image.fingerprint(folderOf(name))).toEqual(fingerprints.get(name));
  });
});
