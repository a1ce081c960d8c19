// People of a test stack as the web app makes them (@engram/testkit/people), each with a tRPC client.
import { signedUp } from '@engram/testkit/people';
import { trpcClient } from './trpc-client.ts';

export { authAction } from '@engram/testkit/people';

export interface Person {
  id: string;
  email: string;
  cookie: string;
  api: ReturnType<typeof trpcClient>;
}

/** A new, verified and signed-in user of the stack at `url`, with an address made from `label`. */
export async function signedUpPerson(url: string, label: string): Promise<Person> {
  const person = await signedUp(url, label);
  return { ...person, api: trpcClient(url, person.cookie) };
}
