// Prisma's official schema engine (WebAssembly build) driven through adapter-pg, for development and
// tests only: it drafts migration SQL and proves that migrations and schema.prisma agree. Production
// applies the committed SQL with ./migrate.ts and never loads this module.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import type * as EngineModule from '@prisma/schema-engine-wasm/schema_engine_bg';
import pg from 'pg';
import { parseDatabaseUrl, searchPathOption } from './db.js';

export type SchemaEngine = EngineModule.SchemaEngine;

const CHAR_OID = 18;
const TEXT_OID = 25;

type QueryCallback = (error: Error | null, result?: pg.QueryResult) => void;

function charColumnsAsText(result: pg.QueryResult): pg.QueryResult {
  for (const field of result?.fields ?? []) if (field.dataTypeID === CHAR_OID) field.dataTypeID = TEXT_OID;
  return result;
}

/**
 * adapter-pg rejects columns of PostgreSQL's internal one-byte `"char"` type, which the engine reads from
 * pg_catalog (relkind, contype, ...). pg already decodes them as strings; this relabels them as text.
 */
class CharAsTextClient extends pg.Client {
  // biome-ignore lint/suspicious/noExplicitAny: pg.Client#query has a dozen overloads; this forwards all of them.
  override query(config: any, values?: any, callback?: any): any {
    if (typeof config?.submit === 'function') return super.query(config, values, callback);
    const done: QueryCallback | undefined = typeof values === 'function' ? values : callback;
    const args = typeof values === 'function' ? undefined : values;
    if (done) {
      return super.query(config, args, (error: Error | null, result: pg.QueryResult) =>
        done(error, result && charColumnsAsText(result)),
      );
    }
    return (super.query(config, args) as Promise<pg.QueryResult>).then(charColumnsAsText);
  }
}

class WasmPanicRegistry {
  private message = '';
  get_message(): string {
    return this.message;
  }
  set_message(value: string): void {
    this.message = `RuntimeError: ${value}`;
  }
}

/** The slice of the WebAssembly global used here (the project's lib settings do not declare it). */
interface WasmRuntime {
  instantiate(bytes: Uint8Array, imports: object): Promise<{ instance: { exports: Record<string, unknown> } }>;
}

let loading: Promise<typeof EngineModule> | undefined;

/**
 * The package imports its .wasm as an ES module, which Node rejects; so the glue module is loaded on its
 * own and given a WebAssembly instance compiled here, once per process.
 */
function loadEngineModule(): Promise<typeof EngineModule> {
  loading ??= (async () => {
    const glue = await import('@prisma/schema-engine-wasm/schema_engine_bg');
    const gluePath = createRequire(import.meta.url).resolve('@prisma/schema-engine-wasm/schema_engine_bg');
    const bytes = await readFile(join(dirname(gluePath), 'schema_engine_bg.wasm'));
    const wasm = (globalThis as unknown as { WebAssembly: WasmRuntime }).WebAssembly;
    const { instance } = await wasm.instantiate(bytes, { './schema_engine_bg.js': glue });
    // The glue reports Rust panics to this global (the name is fixed inside the wasm build).
    (globalThis as { PRISMA_WASM_PANIC_REGISTRY?: WasmPanicRegistry }).PRISMA_WASM_PANIC_REGISTRY ??=
      new WasmPanicRegistry();
    glue.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return glue;
  })();
  return loading;
}

export interface OpenEngineOptions {
  /** The database the engine may read (diffs from `url`) or write; a service DATABASE_URL. */
  databaseUrl: string;
  /** Prisma schema files the engine starts with, as [path, content] pairs. */
  datamodels?: [string, string][];
  onLog?: (line: string) => void;
}

export interface OpenEngine {
  engine: SchemaEngine;
  close(): Promise<void>;
}

export async function openSchemaEngine({ databaseUrl, datamodels, onLog }: OpenEngineOptions): Promise<OpenEngine> {
  const { SchemaEngine } = await loadEngineModule();
  const { connectionString, schema } = parseDatabaseUrl(databaseUrl);
  // Our own pool, so that close() can end its connections: the engine never disposes the adapter.
  const pool = new pg.Pool({ connectionString, options: searchPathOption(schema), Client: CharAsTextClient, max: 2 });
  const adapter = new PrismaPg(pool, { schema });
  const engine = await SchemaEngine.new(
    { datamodels },
    (line: string) => onLog?.(line),
    bindMigrationAwareSqlAdapterFactory(adapter),
  );
  return {
    engine,
    async close() {
      engine.free();
      await pool.end();
    },
  };
}
