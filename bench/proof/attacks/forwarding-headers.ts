// Forwarding headers that claim another address: the gateway trusts no proxy here, so every limit and record keeps
// the address it sees.
import { signIn } from './ended-sessions.ts';
import type { Session } from './session.ts';

/** The addresses identity recorded for `who`'s sessions (what its limits and the session list see). */
export async function sessionAddresses(t: Session, who: { cookie: string }): Promise<string[]> {
  const answer = await t.fetch([`${t.url}/api/auth/list-sessions`, { headers: { cookie: who.cookie } }]);
  return (answer.body as { ipAddress: string | null }[]).map((session) => session.ipAddress ?? '');
}

/**
 * Sign-ins and calls that claim another address in X-Forwarded-For, X-Real-IP and Forwarded: the
 * gateway trusts no proxy here, so every limit and every record keeps the address it sees.
 */
export async function forwardingHeaders(t: Session): Promise<string[]> {
  const claimed = ['203.0.113.7', '198.51.100.9', '192.0.2.44'];
  const headers = {
    'x-forwarded-for': claimed[0] as string,
    'x-real-ip': claimed[1] as string,
    forwarded: `for=${claimed[2]}`,
  };
  const someone = await t.person('forwarder');
  const claiming = { cookie: await signIn(t, someone.email, headers) };
  await t.send(claiming, 'cards.list', { pageSize: 10, archived: false }, headers);
  const breaches: string[] = [];
  for (const address of await sessionAddresses(t, claiming)) {
    if (claimed.some((ip) => address.includes(ip))) breaches.push(`a session was recorded from the claimed ${address}`);
  }
  return breaches;
}
