// People of a running stack as the web app makes them: signed up and verified through the gateway, and
// better-auth's account endpoints called as the browser calls them (the gateway's tests, the proof's
// learners and its attackers are all made here).
import { randomBytes } from 'node:crypto';
import { signUpThroughGateway } from './stack.ts';

export interface SignedUp {
  id: string;
  email: string;
  /** The Cookie header of their session. */
  cookie: string;
}

/** A new, verified and signed-in user of the stack at `url`, with an address made from `label`. */
export async function signedUp(url: string, label: string, domain = 'example.com'): Promise<SignedUp> {
  const email = `${label}-${randomBytes(4).toString('hex')}@${domain}`;
  const cookie = await signUpThroughGateway(url, label, email);
  const session = (await (await fetch(`${url}/api/auth/get-session`, { headers: { cookie } })).json()) as {
    user: { id: string };
  };
  return { id: session.user.id, email, cookie };
}

/** POST /api/auth/<path> as `who`'s browser sends it; anything but 200 throws with the answer. */
// biome-ignore lint/suspicious/noExplicitAny: answers are read by shape, as the web app reads them
export async function authAction(url: string, who: { cookie: string }, path: string, body: unknown): Promise<any> {
  const response = await fetch(`${url}/api/auth/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url, cookie: who.cookie },
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}
