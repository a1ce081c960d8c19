// A new cards replica warms up before it serves: its Prisma client (whose first query loads Prisma's query
// compiler) and its pg pool each hold the connections a dashboard's batch needs, with their first query run.
import { WARM_CONNECTIONS, warmDatabase } from '@engram/kit/db';
import { testContext } from '@engram/testkit/context';
import { expect, it } from 'vitest';
import { closeStores, createStores } from '../../src/db.js';

it("opens the connections a new replica's first calls would wait for, in Prisma's pool and in pg's", async () => {
  const stores = createStores(testContext().databaseUrl);
  try {
    await Promise.all([warmDatabase(stores.db), warmDatabase(stores.pool)]);
    // Each warmed connection is idle after its one query; the check itself runs on one of pg's.
    const { rows } = await stores.pool.query<{ app: string; open: number }>(
      `select application_name as app, count(*)::int as open from pg_stat_activity
        where datname = current_database() and application_name in ('cards', 'cards-prisma')
          and (query = 'select 1' or pid = pg_backend_pid())
        group by 1 order by 1`,
    );
    expect(rows).toEqual([
      { app: 'cards', open: WARM_CONNECTIONS },
      { app: 'cards-prisma', open: WARM_CONNECTIONS },
    ]);
  } finally {
    await closeStores(stores);
  }
});
