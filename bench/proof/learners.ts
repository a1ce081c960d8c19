// The proof's learners, set up as people are through the gateway: each signs up (and in, through the
// mailed link), writes cards of their own, joins one organization and subscribes to its shared deck, so
// some of their reviews are of deck copies and reach the organization's progress through events.
import { linkIn, nextMail } from '@engram/testkit/mailbox';
import { authAction, type SignedUp, signedUp } from '@engram/testkit/people';
import { TEST_PASSWORD } from '@engram/testkit/stack';
import { waitUntil } from '@engram/testkit/wait';
import { trpc } from '../bench-stack.ts';
import { schemaClient } from './schema-client.ts';

export interface Learner {
  email: string;
  userId: string;
  cookie: string;
  /** Review items of their own cards, and of their copies of the organization's deck. */
  ownItems: string[];
  copyItems: string[];
}

type Person = SignedUp;

const person = (url: string, label: string) => signedUp(url, label, 'proof.example');

/** better-auth's organization endpoints, as the web app calls them. */
const organization = (url: string, who: Person, path: string, body: unknown) =>
  authAction(url, who, `organization/${path}`, body) as Promise<{ id: string }>;

export async function setUpLearners(
  url: string,
  databaseUrl: string,
  count: number,
  sizes: { ownCards: number; deckCards: number },
): Promise<Learner[]> {
  const owner = await person(url, 'proof-owner');
  const org = await organization(url, owner, 'create', { name: 'Proof Academy', slug: `proof-${Date.now()}` });
  const tag = (await trpc(url, owner.cookie, 'cards.createTag', { name: 'proof deck' }, 'POST')) as {
    result: { data: { id: string } };
  };
  const deckCards = Array.from({ length: sizes.deckCards }, (_, i) => ({
    front: `shared ${i}`,
    back: `answer ${i}`,
    tagIds: [tag.result.data.id],
  }));
  await trpc(url, owner.cookie, 'cards.createMany', { cards: deckCards }, 'POST');
  const deck = (await trpc(
    url,
    owner.cookie,
    'orgs.publishDeck',
    { organizationId: org.id, name: 'Proof deck', tagId: tag.result.data.id },
    'POST',
  )) as { result: { data: { id: string } } };

  const people: Person[] = [];
  for (let i = 0; i < count; i += 1) {
    const learner = await person(url, `proof-learner-${i}`);
    await organization(url, owner, 'invite-member', { email: learner.email, role: 'member', organizationId: org.id });
    const invitationId = new URL(linkIn(await nextMail(url, learner.email, /invited you to/))).searchParams.get(
      'invitationId',
    );
    await organization(url, learner, 'accept-invitation', { invitationId });
    const own = Array.from({ length: sizes.ownCards }, (_, n) => ({ front: `own ${n}`, back: `back ${n}` }));
    await trpc(url, learner.cookie, 'cards.createMany', { cards: own }, 'POST');
    await trpc(url, learner.cookie, 'orgs.subscribe', { deckId: deck.result.data.id }, 'POST');
    people.push(learner);
  }

  // The copies arrive through events: wait for them, then read which items are whose from cards' tables.
  const cards = await schemaClient(databaseUrl, 'cards');
  try {
    const itemsOf = async (userId: string) =>
      (
        await cards.query<{ id: string; copy: boolean }>(
          `select i.id, c.deck_id is not null as copy from review_items i join cards c on c.id = i.card_id
            where i.owner_id = $1 order by i.id`,
          [userId],
        )
      ).rows;
    await waitUntil(
      'every learner has their copies of the deck',
      async () => {
        for (const learner of people) {
          if ((await itemsOf(learner.id)).filter((item) => item.copy).length < sizes.deckCards) return false;
        }
        return true;
      },
      60_000,
    );
    const learners: Learner[] = [];
    for (const learner of people) {
      const items = await itemsOf(learner.id);
      learners.push({
        email: learner.email,
        userId: learner.id,
        cookie: learner.cookie,
        ownItems: items.filter((item) => !item.copy).map((item) => item.id),
        copyItems: items.filter((item) => item.copy).map((item) => item.id),
      });
    }
    return learners;
  } finally {
    await cards.end();
  }
}

/**
 * A learner deletes their account (with their password, as the account screen does), trying again as a
 * browser's user would when an attempt fails; true once the app said it was done, or the account is gone
 * (an attempt whose answer was lost may have deleted it: the session then no longer exists).
 */
export async function deleteAccount(url: string, learner: Learner): Promise<boolean> {
  for (let attempt = 1; attempt <= 6; attempt += 1) {
    try {
      const response = await fetch(`${url}/api/auth/delete-user`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: url, cookie: learner.cookie },
        body: JSON.stringify({ password: TEST_PASSWORD }),
        signal: AbortSignal.timeout(10_000),
      });
      await response.body?.cancel();
      if (response.status === 200) return true;
      if (response.status === 401 && attempt > 1) return true;
    } catch {
      // no answer: try again
    }
    await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
  }
  return false;
}
