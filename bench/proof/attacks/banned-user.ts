// A banned user, with the session a ban keeps and an API key made before it: refused everywhere, changing nothing.
import { API_KEY_HEADER } from '@engram/contracts/auth-features';
import { authAction } from '@engram/testkit/people';
import { schemaClient } from '../schema-client.ts';
import { signIn } from './ended-sessions.ts';
import { attacksOn } from './other-users-ids.ts';
import { type AttackTarget, procedures, type Session, suffix } from './session.ts';
import type { Attacker, Victim } from './victim.ts';

/**
 * A banned user, with the session a ban keeps and with an API key made before the ban: every procedure
 * and every account endpoint but reading the session and signing out is refused, and nothing changes.
 */
export async function bannedUser(t: Session, target: AttackTarget, attacker: Attacker): Promise<string[]> {
  const admin = await t.person('admin');
  const identity = await schemaClient(target.settings.databaseUrl, 'identity');
  try {
    await identity.query(`update users set role = 'admin' where id = $1`, [admin.id]);
  } finally {
    await identity.end();
  }
  const adminSession = { cookie: await signIn(t, admin.email) };
  const banned = await t.person('banned');
  await t.call(banned, 'cards.create', { front: 'before the ban', back: 'kept' });
  const { key } = await authAction(t.url, banned, 'api-key/create', { name: 'script' });
  await authAction(t.url, adminSession, 'admin/ban-user', { userId: banned.id, banReason: 'abuse' });

  const own = () => storedOf(target, banned.id);
  const before = await own();
  const table = attacksOn({ secrets: [] } as unknown as Victim, attacker);
  const breaches: string[] = [];
  for (const [what, headers] of [
    ['their session', { cookie: banned.cookie }],
    ['their API key', { [API_KEY_HEADER]: key as string }],
  ] as const) {
    for (const { path } of procedures()) {
      if (path === 'billing.plans') continue; // the catalogue is public
      const answer = await t.send({ cookie: '' }, path, table[path]?.[0] ?? {}, headers);
      if (answer.status !== 403 && answer.status !== 401) breaches.push(`${path} with ${what}: ${answer.status}`);
    }
    for (const [path, body] of [
      ['update-user', { name: 'renamed while banned' }],
      ['organization/create', { name: 'Spam Inc', slug: `spam-${suffix()}` }],
      ['api-key/create', { name: 'another' }],
      ['change-email', { newEmail: `elsewhere-${suffix()}@example.com` }],
    ] as const) {
      const answer = await t.fetch([
        `${t.url}/api/auth/${path}`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: t.url, ...headers },
          body: JSON.stringify(body),
        },
      ]);
      if (answer.body?.code !== 'BANNED_USER') breaches.push(`/api/auth/${path} with ${what}: ${answer.status}`);
    }
  }
  if ((await own()) !== before) breaches.push("the banned user's data changed");
  return breaches;
}

/** What the services store of `userId` (their name and email, keys, memberships, cards), as text to compare. */
export async function storedOf(target: AttackTarget, userId: string): Promise<string> {
  const identity = await schemaClient(target.settings.databaseUrl, 'identity');
  const cards = await schemaClient(target.settings.databaseUrl, 'cards');
  try {
    const rows = [
      await identity.query('select name, email, image from users where id = $1', [userId]),
      await identity.query('select count(*) from api_keys where reference_id = $1', [userId]),
      await identity.query('select count(*) from members where user_id = $1', [userId]),
      await cards.query('select front, back, archived from cards where owner_id = $1 order by id', [userId]),
    ];
    return JSON.stringify(rows.map((result) => result.rows));
  } finally {
    await Promise.all([identity.end(), cards.end()]);
  }
}
