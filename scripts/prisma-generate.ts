// `pnpm generate` for one service (run from its folder): generates the Prisma 7 client from
// prisma/schema.prisma, or does nothing for a service without one. The CLI wants to download a native
// schema engine first, which is unreachable here and not needed to generate: any existing executable
// stands in for it (docs/architecture.md#toolchain).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const schema = join('prisma', 'schema.prisma');
if (!existsSync(schema)) {
  console.log(`no ${schema} in ${process.cwd()}: nothing to generate`);
  process.exit(0);
}

const prisma = join('node_modules', '.bin', 'prisma');
if (!existsSync(prisma)) {
  console.error(`${prisma} is missing: add prisma to this package's devDependencies`);
  process.exit(1);
}

const result = spawnSync(prisma, ['generate', '--schema', schema], {
  stdio: 'inherit',
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? '/bin/true',
    // No update checks or usage reports to Prisma's servers: these machines reach only the registries.
    CHECKPOINT_DISABLE: '1',
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
  },
});
if (result.error) throw result.error;
process.exit(result.status ?? 1);
