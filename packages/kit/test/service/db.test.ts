// A service's DATABASE_URL selects its schema: pg connections and Prisma's adapter must both land there.
import { randomBytes } from 'node:crypto';
import { createPool, createPrismaClient, parseDatabaseUrl, warmDatabase } from '@engram/kit/db';
import { testContext } from '@engram/testkit/context';
import { schemaUrl } from '@engram/testkit/databases';
import type { PrismaPg } from '@prisma/adapter-pg';
import { describe, expect, it } from 'vitest';

describe('parseDatabaseUrl', () => {
  it('takes the schema out of the URL and keeps every other parameter', () => {
    expect(parseDatabaseUrl('postgresql://app:pw@db:5432/engram?schema=cards&sslmode=require')).toEqual({
      connectionString: 'postgresql://app:pw@db:5432/engram?sslmode=require',
      schema: 'cards',
    });
  });

  it('takes a connection limit out of the URL too, and ignores one that is not a positive whole number', () => {
    expect(parseDatabaseUrl('postgresql://db/engram?schema=cards&connection_limit=4')).toEqual({
      connectionString: 'postgresql://db/engram',
      schema: 'cards',
      connectionLimit: 4,
    });
    for (const limit of ['0', '-2', '2.5', 'many']) {
      expect(parseDatabaseUrl(`postgresql://db/engram?connection_limit=${limit}`), limit).toEqual({
        connectionString: 'postgresql://db/engram',
        schema: 'public',
      });
    }
  });

  it('uses the public schema when the URL names none', () => {
    expect(parseDatabaseUrl('postgresql://db/engram')).toEqual({
      connectionString: 'postgresql://db/engram',
      schema: 'public',
    });
  });
});

describe('createPool', () => {
  it('resolves unqualified names in the schema, whatever characters its name holds', async () => {
    const schema = `kit db "${randomBytes(3).toString('hex')}" \\ odd`;
    const pool = createPool(schemaUrl(testContext().databaseUrl, schema), { max: 2, applicationName: 'kit-db-test' });
    try {
      await pool.query(`create schema "${schema.replaceAll('"', '""')}"`);
      await pool.query('create table notes (body text)');

      const { rows } = await pool.query(
        `select current_schema() as schema, current_setting('application_name') as app,
                (select table_schema from information_schema.tables where table_name = 'notes' and table_schema = current_schema()) as notes_in`,
      );

      expect(rows).toEqual([{ schema, app: 'kit-db-test', notes_in: schema }]);
    } finally {
      await pool.end();
    }
  });
});

describe("a URL's connection limit", () => {
  it('caps every pool opened on it, however many connections its owner asks for', async () => {
    const url = new URL(testContext().databaseUrl);
    url.searchParams.set('connection_limit', '2');
    const pool = createPool(url.toString(), { max: 10 });
    try {
      // Five queries at once: two run, three wait for a connection; none fails.
      const answers = await Promise.all(Array.from({ length: 5 }, () => pool.query('select pg_sleep(0.05)')));
      expect(answers).toHaveLength(5);
      expect(pool.totalCount).toBe(2);
    } finally {
      await pool.end();
    }
    const unlimited = createPool(testContext().databaseUrl, { max: 3 });
    try {
      await Promise.all(Array.from({ length: 5 }, () => unlimited.query('select pg_sleep(0.05)')));
      expect(unlimited.totalCount).toBe(3);
    } finally {
      await unlimited.end();
    }
  });

  it("caps a Prisma client's pool", () => {
    class StandInClient {
      readonly adapter: PrismaPg;
      constructor({ adapter }: { adapter: PrismaPg }) {
        this.adapter = adapter;
      }
    }
    const url = new URL(testContext().databaseUrl);
    url.searchParams.set('connection_limit', '3');
    const client = createPrismaClient(StandInClient, url.toString());
    // The adapter's pool settings, as it will open its pool.
    expect((client.adapter as unknown as { config: { max?: number } }).config.max).toBe(3);
  });
});

describe('createPrismaClient', () => {
  it("hands Prisma an adapter bound to the URL's schema", async () => {
    const schema = `kit_db_${randomBytes(3).toString('hex')}`;
    class StandInClient {
      readonly adapter: PrismaPg;
      constructor({ adapter }: { adapter: PrismaPg }) {
        this.adapter = adapter;
      }
    }

    const url = schemaUrl(testContext().databaseUrl, schema);
    const pool = createPool(url);
    await pool.query(`create schema ${schema}`).finally(() => pool.end());

    const client = createPrismaClient(StandInClient, url);

    const connection = await client.adapter.connect();
    try {
      // Prisma qualifies its queries with this name; raw SQL resolves through the search_path.
      expect(connection.getConnectionInfo().schemaName).toBe(schema);
      const result = await connection.queryRaw({ sql: 'select current_schema()', args: [], argTypes: [] });
      expect(result.rows).toEqual([[schema]]);
    } finally {
      await connection.dispose();
    }
  });
});

describe('warmDatabase', () => {
  it("opens the connections a replica's first calls would otherwise wait for", async () => {
    const pool = createPool(testContext().databaseUrl, { max: 10 });
    try {
      await warmDatabase(pool, 4);
      expect({ open: pool.totalCount, idle: pool.idleCount }).toEqual({ open: 4, idle: 4 });
    } finally {
      await pool.end();
    }
  });

  it("opens them in a Prisma client's pool, whose first query has then run", async () => {
    const application = `kit-warm-${randomBytes(3).toString('hex')}`;
    const queries: string[] = [];
    const prismaLike = { $queryRawUnsafe: (query: string) => pool.query(query).then(() => queries.push(query)) };
    const pool = createPool(testContext().databaseUrl, { max: 10, applicationName: application });
    try {
      await warmDatabase(prismaLike, 3);
      const { rows } = await pool.query(
        'select count(*)::int as open from pg_stat_activity where application_name = $1',
        [application],
      );
      expect({ queries, open: rows[0].open }).toEqual({ queries: ['select 1', 'select 1', 'select 1'], open: 3 });
    } finally {
      await pool.end();
    }
  });
});
