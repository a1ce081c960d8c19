// The committed migrations build exactly the schema that prisma/schema.prisma describes.
import { randomBytes } from 'node:crypto';
import { diffMigrationsAgainstSchema } from '@engram/kit/migrate-draft';
import { testContext } from '@engram/testkit/context';
import { schemaUrl } from '@engram/testkit/databases';
import { expect, it } from 'vitest';

it('has migrations that agree with schema.prisma', async () => {
  const databaseUrl = schemaUrl(testContext().databaseUrl, `cards_check_${randomBytes(4).toString('hex')}`);
  const prismaDir = new URL('../../prisma', import.meta.url).pathname;
  expect(await diffMigrationsAgainstSchema({ prismaDir, databaseUrl })).toBe('');
});
