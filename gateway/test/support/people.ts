// People of a test stack as the web app makes them: signed up and verified through the gateway, each with
// a tRPC client, and better-auth's account endpoints called as the browser calls them.
import { randomBytes } from 'node:crypto';
import { signUpThroughGateway } from '@engram/testkit/stack';
import { type Json, trpcClient } from './trpc-client.ts';

export interface Person {
  id: string;
  email: string;
  cookie: string;
  api: ReturnType<typeof trpcClient>;
}

/** A new, verified and signed-in user of the stack at `url`, with an address made from `label`. */
export async function signedUpPerson(url: string, label: string): Promise<Person> {
  const email = `${label}-${randomBytes(4).toString('hex')}@example.com`;
  const cookie = await signUpThroughGateway(url, label, email);
  const session = (await (await fetch(`${url}/api/auth/get-session`, { headers: { cookie } })).json()) as Json;
  return { id: session.user.id, email, cookie, api: trpcClient(url, cookie) };
}

/** POST /api/auth/<path> as `who`'s browser sends it; anything but 200 throws with the answer. */
export async function authAction(url: string, who: { cookie: string }, path: string, body: unknown): Promise<Json> {
  const response = await fetch(`${url}/api/auth/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url, cookie: who.cookie },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as Json;
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}
