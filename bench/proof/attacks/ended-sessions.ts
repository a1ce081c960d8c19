// Every procedure called with a session that was signed out and with one revoked from another device.
import { authAction } from '@engram/testkit/people';
import { TEST_PASSWORD } from '@engram/testkit/stack';
import { attacksOn } from './other-users-ids.ts';
import { procedures, type Session } from './session.ts';
import type { Attacker, Victim } from './victim.ts';

/** Signs `email` in again: a second session (another device); returns its Cookie header. */
export async function signIn(t: Session, email: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await fetch(`${t.url}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: t.url, ...headers },
    body: JSON.stringify({ email, password: TEST_PASSWORD }),
  });
  if (response.status !== 200) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

/** Every procedure that needs a user, called with a session that was signed out and one revoked from another device. */
export async function endedSessions(t: Session, attacker: Attacker): Promise<string[]> {
  const leaver = await t.person('leaver');
  const revoked = { cookie: await signIn(t, leaver.email) };
  await authAction(t.url, leaver, 'revoke-other-sessions', {});
  await authAction(t.url, leaver, 'sign-out', {});
  const table = attacksOn({ secrets: [] } as unknown as Victim, attacker);
  const breaches: string[] = [];
  for (const [what, who] of [
    ['signed out', leaver],
    ['revoked from another device', revoked],
  ] as const) {
    for (const { path } of procedures()) {
      if (path === 'billing.plans') continue; // the catalogue is public
      const answer = await t.send(who, path, table[path]?.[0] ?? {});
      if (answer.status !== 401) breaches.push(`${path} with a session ${what}: ${answer.status}`);
    }
  }
  return breaches;
}
