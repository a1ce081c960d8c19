// Every mutation and the account endpoints that matter, sent from another site with the victim's cookie: each
// must be refused.
import { attacksOn } from './other-users-ids.ts';
import { procedures, type Session, suffix } from './session.ts';
import { type Attacker, type Victim, victimsView } from './victim.ts';

export const CROSS_SITE: [string, Record<string, string>][] = [
  ['a foreign Origin', { origin: 'https://evil.example' }],
  ['no Origin but Sec-Fetch-Site: cross-site', { origin: '', 'sec-fetch-site': 'cross-site' }],
  ['no Origin but a foreign Referer', { origin: '', referer: 'https://evil.example/page' }],
];

/** Every mutation and the account endpoints that matter, sent from another site with the victim's cookie. */
export async function crossSiteWrites(t: Session, victim: Victim, attacker: Attacker): Promise<string[]> {
  const before = await victimsView(t, victim);
  const breaches: string[] = [];
  const table = attacksOn(victim, attacker);
  for (const [what, headers] of CROSS_SITE) {
    for (const { path } of procedures().filter((p) => p.type === 'mutation')) {
      const answer = await t.send(victim, path, table[path]?.[0] ?? {}, headers);
      if (answer.status !== 403) breaches.push(`${path} with ${what}: ${answer.status}`);
    }
    for (const path of ['update-user', 'delete-user', 'organization/create', 'api-key/create', 'change-email']) {
      const answer = await t.fetch([
        `${t.url}/api/auth/${path}`,
        {
          method: 'POST',
          headers: { 'content-type': 'text/plain', cookie: victim.cookie, ...headers },
          body: JSON.stringify({ name: 'pwned', slug: `pwned-${suffix()}`, newEmail: 'pwned@example.com' }),
        },
      ]);
      if (answer.status !== 403) breaches.push(`/api/auth/${path} with ${what}: ${answer.status}`);
    }
  }
  if (JSON.stringify(await victimsView(t, victim)) !== JSON.stringify(before))
    breaches.push("the victim's data changed");
  return breaches;
}
