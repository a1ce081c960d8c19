// A throwaway database for a benchmark that measures one service's code against PostgreSQL: created empty,
// handed to `work`, dropped afterwards whatever happens.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export async function withDatabase<T>(adminUrl: string, work: (url: string) => Promise<T>): Promise<T> {
  const name = `engram_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  try {
    return await work(url.toString());
  } finally {
    await admin.query(`drop database "${name}" with (force)`);
    await admin.end();
  }
}
