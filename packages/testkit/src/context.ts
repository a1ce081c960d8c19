// What a test file gets from the run's global setup: its database, Redis, NATS and event namespace.
import { inject } from 'vitest';

export interface EngramTestContext {
  runId: string;
  /** A database created for this run; each service test uses its own schema in it. */
  databaseUrl: string;
  /**
   * The name of a database of this run with every service's migrations applied, migrated once by the global
   * setup: a stack's database is created as a copy of it (stack.ts).
   */
  migratedTemplate: string;
  redisUrl: string;
  natsUrl: string;
  /** Prepended to every event subject, so parallel runs never share a stream. */
  subjectPrefix: string;
  streamName: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    engram: EngramTestContext;
  }
}

export function testContext(): EngramTestContext {
  return inject('engram');
}
