// The proof's attacks, through the real gateway and every service of a running stack: every tRPC procedure
// called with another user's and another organization's ids, every gRPC method of every service without an
// internal token and with a forged, expired, wrong-audience or unsigned one, every write sent cross-site,
// every procedure with a signed-out and with a revoked session, a banned user with their session and
// their API key, forwarding headers that claim another address, and every procedure's input fuzzed
// (fast-check). The promise: no call succeeds against someone else's data or past a refusal, none answers
// 5xx, and a refused call changes nothing. Each attack is one row of the proof's table; each family of attacks
// has a file of its own in attacks/.
import { bannedUser } from './attacks/banned-user.ts';
import { crossSiteWrites } from './attacks/cross-site.ts';
import { endedSessions } from './attacks/ended-sessions.ts';
import { forwardingHeaders } from './attacks/forwarding-headers.ts';
import { fuzzedInput } from './attacks/fuzzed-input.ts';
import { badInternalTokens } from './attacks/internal-tokens.ts';
import { anotherUsersIds } from './attacks/other-users-ids.ts';
import { type AttackResult, type AttackTarget, Session, suffix } from './attacks/session.ts';
import { type Attacker, victimActiveEverywhere } from './attacks/victim.ts';

export type { AttackResult, AttackTarget } from './attacks/session.ts';

export const ATTACKS = [
  "another user's and organization's ids, every procedure",
  'every gRPC method without a valid internal token',
  'writes sent from another site',
  'signed-out and revoked sessions',
  'a banned user, by session and by API key',
  'forwarding headers that claim another address',
  'fuzzed input to every procedure',
] as const;

/**
 * Runs every attack against `target` and returns one result per attack, in ATTACKS' order. `fuzzRuns` is
 * how many inputs the fuzzer tries per procedure.
 */
export async function runAttacks(target: AttackTarget, fuzzRuns = 12): Promise<AttackResult[]> {
  const setup = new Session(target.url);
  const victim = await victimActiveEverywhere(setup);
  const me = await setup.person('attacker');
  const org = await setup.organization(me, 'create', { name: 'Intruders', slug: `intruders-${suffix()}` });
  const tag = await setup.call(me, 'cards.createTag', { name: 'intruder tag' });
  await setup.call(me, 'cards.create', { front: 'intruder card', back: 'x' });
  const [own] = (await setup.call(me, 'cards.listDue', {})).items;
  const attacker: Attacker = { ...me, orgId: org.id, tagId: tag.id, dueItemId: own.id };
  const attacks: [string, (t: Session) => Promise<string[]>][] = [
    [ATTACKS[0], (t) => anotherUsersIds(t, victim, attacker)],
    [ATTACKS[1], (t) => badInternalTokens(t, target, victim)],
    [ATTACKS[2], (t) => crossSiteWrites(t, victim, attacker)],
    [ATTACKS[3], (t) => endedSessions(t, attacker)],
    [ATTACKS[4], (t) => bannedUser(t, target, attacker)],
    [ATTACKS[5], (t) => forwardingHeaders(t)],
    [ATTACKS[6], (t) => fuzzedInput(t, fuzzRuns)],
  ];
  const results: AttackResult[] = [];
  for (const [name, attack] of attacks) {
    const t = new Session(target.url);
    const breaches = await attack(t).catch((error: Error) => [`the attack could not be run: ${error.message}`]);
    results.push(t.result(name, breaches));
  }
  return results;
}
