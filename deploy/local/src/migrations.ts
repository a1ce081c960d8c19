// Applies every service's committed migrations to its own schema (the same runner production uses).
import { applyMigrations } from '@engram/kit/migrate';
import { MIGRATED_SERVICES, repoRoot, serviceDatabaseUrl } from './components.ts';

export async function migrateAll(databaseUrl: string, log: (line: string) => void = () => {}): Promise<void> {
  for (const service of MIGRATED_SERVICES) {
    const { applied } = await applyMigrations({
      databaseUrl: serviceDatabaseUrl(databaseUrl, service),
      migrationsDir: `${repoRoot}services/${service}/prisma/migrations`,
    });
    log(`${service}: ${applied.length === 0 ? 'schema up to date' : `applied ${applied.join(', ')}`}`);
  }
}
