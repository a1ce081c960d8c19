// The proof's learners, set up as people are through the gateway: each signs up (and in, through the
// mailed link), writes cards of their own, joins one organization and subscribes to its shared deck, so
// some of their reviews are of deck copies and reach the organization's progress through events.
import { randomBytes } from 'node:crypto';
import { linkIn, nextMail } from '@engram/testkit/mailbox';
import { signUpThroughGateway } from '@engram/testkit/stack';
import { waitUntil } from '@engram/testkit/wait';
import { trpc } from '../bench-stack.ts';
import { schemaClient } from './verify.ts';

export interface Learner {
  email: string;
  userId: string;
  cookie: string;
  /** Review items of their own cards, and of their copies of the organization's deck. */
  ownItems: string[];
  copyItems: string[];
}

interface Person {
  email: string;
  userId: string;
  cookie: string;
}

async function person(url: string, label: string): Promise<Person> {
  const email = `${label}-${randomBytes(4).toString('hex')}@proof.example`;
  const cookie = await signUpThroughGateway(url, label, email);
  const session = (await (await fetch(`${url}/api/auth/get-session`, { headers: { cookie } })).json()) as {
    user: { id: string };
  };
  return { email, userId: session.user.id, cookie };
}

/** better-auth's organization endpoints, as the web app calls them. */
async function organization(url: string, who: Person, path: string, body: unknown) {
  const response = await fetch(`${url}/api/auth/organization/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url, cookie: who.cookie },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { id: string };
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

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
          if ((await itemsOf(learner.userId)).filter((item) => item.copy).length < sizes.deckCards) return false;
        }
        return true;
      },
      60_000,
    );
    const learners: Learner[] = [];
    for (const learner of people) {
      const items = await itemsOf(learner.userId);
      learners.push({
        ...learner,
        ownItems: items.filter((item) => !item.copy).map((item) => item.id),
        copyItems: items.filter((item) => item.copy).map((item) => item.id),
      });
    }
    return learners;
  } finally {
    await cards.end();
  }
}
