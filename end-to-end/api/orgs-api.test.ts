// Shared decks through the real gateway and processes (identity, cards, organizations, NATS): an
// owner shares a tag's cards as a deck with a team and assigns it; members subscribe and study their own
// copies; progress reaches the owner from the review events; a guest sees only their own; a removed
// member loses access at once and their subscription ends; edits reach copies without losing progress;
// and every orgs.* procedure refuses a user of another organization.
import { randomUUID } from 'node:crypto';
import { linkIn, nextMail, readMailbox } from '@engram/testkit/mailbox';
import { sharedTestStack } from '@engram/testkit/shared-stack';
import { TEST_PASSWORD, type TestStack } from '@engram/testkit/stack';
import pg from 'pg';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { authAction, type Person, signedUpPerson } from '../support/people.ts';
import type { Json } from '../support/trpc-client.ts';

let stack: TestStack;

beforeAll(async () => {
  stack = await sharedTestStack();
});

const person = (label: string) => signedUpPerson(stack.url, label);

/** better-auth's organization endpoints as the web app calls them. */
const organization = (who: Person, path: string, body: unknown) =>
  authAction(stack.url, who, `organization/${path}`, body);

/** Invites `who` (with the mail the dev mailbox keeps) and accepts as them. */
async function join(inviter: Person, organizationId: string, who: Person, role = 'member', teamId?: string) {
  await organization(inviter, 'invite-member', { email: who.email, role, organizationId, ...(teamId && { teamId }) });
  const mail = await nextMail(stack.url, who.email, /invited you to/);
  const invitationId = new URL(linkIn(mail)).searchParams.get('invitationId');
  await organization(who, 'accept-invitation', { invitationId });
}

/** The tRPC error code of a refused call. */
async function refusal(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    return (error as Json).data?.code ?? String(error);
  }
  return 'ALLOWED';
}

const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString();

/** An owner with an organization, a team, and a tag of three cards. */
async function academy(label: string) {
  const owner = await person(`${label}-owner`);
  const org = await organization(owner, 'create', {
    name: `${label} Academy`,
    slug: `${label}-${Date.now().toString(36)}`,
  });
  const team = await organization(owner, 'create-team', { name: 'Biology', organizationId: org.id });
  const tag = await owner.api.mutate('cards.createTag', { name: `${label} cells` });
  for (const [front, back] of [
    ['What is the powerhouse of the cell?', 'The mitochondrion'],
    ['What holds the genome?', 'The nucleus'],
    ['What makes proteins?', 'The ribosome'],
  ]) {
    await owner.api.mutate('cards.create', { front, back, tagIds: [tag.id] });
  }
  return { owner, org, team, tag };
}

/** The learner's cards that are copies of the deck (tagged with the deck's name). */
async function copies(who: Person, archived = false): Promise<Json[]> {
  const page = await who.api.query('cards.list', { pageSize: 100, archived });
  return page.items.filter((card: Json) => card.deckId);
}

/** Waits until the learner has `count` copies (archived ones, with `archived`). */
function untilCopies(who: Person, count: number, archived = false) {
  return vi.waitFor(async () => expect(await copies(who, archived)).toHaveLength(count), {
    timeout: 15_000,
    interval: 100,
  });
}

/**
 * An academy whose member subscribed to `deckName`, its three cards shared with the whole organization,
 * once their copies arrived; with `cardsToLearn`, the deck is also assigned with that target.
 */
async function subscribedMember(label: string, deckName: string, cardsToLearn?: number) {
  const school = await academy(label);
  const { owner, org, tag } = school;
  const member = await person(`${label}-member`);
  await join(owner, org.id, member);
  const deck = await owner.api.mutate('orgs.publishDeck', { organizationId: org.id, name: deckName, tagId: tag.id });
  if (cardsToLearn !== undefined) {
    await owner.api.mutate('orgs.createAssignment', {
      organizationId: org.id,
      deckId: deck.id,
      dueAt: tomorrow(),
      targetKind: 'cards_learned',
      targetValue: cardsToLearn,
    });
  }
  await member.api.mutate('orgs.subscribe', { deckId: deck.id });
  await untilCopies(member, 3);
  return { ...school, member, deck };
}

describe('a deck shared with a team', () => {
  it('reaches the members who subscribe as their own cards, and their reviews reach the owner’s progress', async () => {
    const { owner, org, team, tag } = await academy('share');
    const member = await person('share-member');
    await join(owner, org.id, member, 'member', team.id);

    const deck = await owner.api.mutate('orgs.publishDeck', {
      organizationId: org.id,
      teamId: team.id,
      name: 'Cell biology',
      description: 'The parts of a cell',
      tagId: tag.id,
    });
    expect(deck).toMatchObject({ name: 'Cell biology', cardCount: 3, teamId: team.id, subscribed: false });
    const assignment = await owner.api.mutate('orgs.createAssignment', {
      organizationId: org.id,
      deckId: deck.id,
      teamId: team.id,
      dueAt: tomorrow(),
      targetKind: 'cards_learned',
      targetValue: 2,
    });

    expect((await member.api.query('orgs.decks', { organizationId: org.id })).items.map((d: Json) => d.name)).toEqual([
      'Cell biology',
    ]);
    const [mine] = (await member.api.query('orgs.assignments', undefined)).items;
    expect(mine).toMatchObject({ id: assignment.id, deckName: 'Cell biology', subscribed: false });
    expect(mine.mine).toMatchObject({ reviews: 0, cardsLearned: 0, cardCount: 3 });

    await member.api.mutate('orgs.subscribe', { deckId: deck.id });
    await untilCopies(member, 3);

    const due = await member.api.query('cards.listDue', {});
    for (const item of due.items.slice(0, 2)) {
      await member.api.mutate('cards.review', {
        id: item.id,
        rating: 'easy',
        reviewId: randomUUID(),
        durationMs: 3000,
      });
    }
    await vi.waitFor(
      async () => {
        const progress = await owner.api.query('orgs.progress', {
          organizationId: org.id,
          assignmentId: assignment.id,
        });
        expect(progress.allMembers).toBe(true);
        expect(progress.items.find((row: Json) => row.userId === member.id)).toMatchObject({
          reviews: 2,
          streakDays: 1,
          cardCount: 3,
        });
      },
      { timeout: 15_000, interval: 200 },
    );
    // The owner's own cards are not copies: nothing of theirs changed.
    expect(await copies(owner)).toHaveLength(0);
  });

  it("shares a note of the publisher's own note type as a card of its fields: the note type stays theirs", async () => {
    const { owner, org, tag } = await academy('share-note');
    const member = await person('share-note-member');
    await join(owner, org.id, member);
    const words = await owner.api.mutate('cards.createNoteType', {
      name: 'Organelles',
      fields: ['Organelle', 'Role', 'Picture'],
      templates: [{ name: 'Role', front: '{{Organelle}}', back: '{{Role}}' }],
    });
    await owner.api.mutate('cards.create', {
      noteTypeId: words.id,
      fields: ['Golgi apparatus', 'Packs proteins', ''],
      tagIds: [tag.id],
    });
    const deck = await owner.api.mutate('orgs.publishDeck', {
      organizationId: org.id,
      name: 'Organelles',
      tagId: tag.id,
    });
    await member.api.mutate('orgs.subscribe', { deckId: deck.id });
    await untilCopies(member, 4);
    const copy = (await copies(member)).find((card) => card.front === 'Golgi apparatus');
    expect(copy).toMatchObject({ type: 'basic', back: 'Packs proteins', noteTypeId: null });
    expect((await member.api.query('cards.noteTypes')).items.map((type: Json) => type.name)).not.toContain(
      'Organelles',
    );
  });

  it('counts what a member learned from reviews synced late from a second device, in the order they were done', async () => {
    const { owner, org, member } = await subscribedMember('devices', 'Two devices');
    const [item] = (await member.api.query('cards.listDue', {})).items;
    const review = (rating: string, minutesAgo: number) => ({
      reviewId: randomUUID(),
      id: item.id,
      rating,
      durationMs: 3000,
      reviewedAt: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
    });
    const progressOf = async () =>
      (await owner.api.query('orgs.progress', { organizationId: org.id })).items.find(
        (row: Json) => row.userId === member.id,
      );
    // The laptop syncs first a review that left the card still being learned (the copy was made moments before
    // both reviews: a device's clock may run that slow)…
    await member.api.mutate('cards.syncReviews', { reviews: [review('good', 1)] });
    await vi.waitFor(async () => expect(await progressOf()).toMatchObject({ reviews: 1, cardsLearned: 0 }), {
      timeout: 15_000,
      interval: 200,
    });
    // …then the phone the one it did before, which had learned it: the laptop's review found it learned, and kept it.
    await member.api.mutate('cards.syncReviews', { reviews: [review('easy', 2)] });
    await vi.waitFor(
      async () => expect(await progressOf()).toMatchObject({ reviews: 2, cardsLearned: 1, retention: 1 }),
      { timeout: 15_000, interval: 200 },
    );
  });

  it('sends a publisher’s edit to the copies without losing what the member learned', async () => {
    const { owner, member, deck } = await subscribedMember('edit', 'Organelles');
    const [item] = (await member.api.query('cards.listDue', {})).items;
    await member.api.mutate('cards.review', { id: item.id, rating: 'easy', reviewId: randomUUID(), durationMs: 2000 });
    const reviewed = (await copies(member)).find((card: Json) => card.id === item.cardId);

    const source = (await owner.api.query('cards.list', { pageSize: 100, archived: false })).items.find(
      (card: Json) => card.front === reviewed.front,
    );
    await owner.api.mutate('cards.update', { id: source.id, front: source.front, back: `${source.back} (edited)` });
    const synced = await owner.api.mutate('orgs.syncDeck', { deckId: deck.id });
    expect(synced.cardCount).toBe(3);

    await vi.waitFor(
      async () => {
        const copy = (await copies(member)).find((card: Json) => card.id === reviewed.id);
        expect(copy.back).toBe(`${source.back} (edited)`);
      },
      { timeout: 15_000, interval: 100 },
    );
    // The reviewed item is still scheduled in the future: its progress stayed.
    const stillDue = (await member.api.query('cards.listDue', {})).items.map((due: Json) => due.id);
    expect(stillDue).not.toContain(item.id);
  });
});

describe('a card saved before the cloze rule was as strict', () => {
  /** Writes `front` straight into the card, as a card saved under the older rule holds it. */
  async function rewriteFront(cardId: string, front: string) {
    const client = new pg.Client({ connectionString: stack.databaseUrl });
    await client.connect();
    try {
      await client.query('update cards.cards set front = $2 where id = $1', [cardId, front]);
    } finally {
      await client.end();
    }
  }

  it('keeps its tags editable, and is named when its tag is shared instead of reaching subscribers', async () => {
    const { owner, org, tag } = await academy('legacy');
    const card = await owner.api.mutate('cards.create', {
      type: 'cloze',
      front: 'The {{c1::mitochondrion}} makes energy',
      back: '',
      tagIds: [tag.id],
    });
    await rewriteFront(card.id, 'The {{c1::}} makes energy');

    const other = await owner.api.mutate('cards.createTag', { name: 'legacy others' });
    const retagged = await owner.api.mutate('cards.update', { id: card.id, tagIds: [tag.id, other.id] });
    expect(retagged.tags.map((t: Json) => t.id).sort()).toEqual([tag.id, other.id].sort());

    const refusal = await owner.api
      .mutate('orgs.publishDeck', { organizationId: org.id, name: 'Legacy', tagId: tag.id })
      .catch((error: Json) => error);
    expect(refusal.data?.code).toBe('BAD_REQUEST');
    expect(refusal.message).toBe(
      'The card “The {{c1::}} makes energy” cannot be shared: A deletion needs an answer to hide, like {{c1::answer}}, not {{c1::}}.',
    );
    expect((await owner.api.query('orgs.decks', { organizationId: org.id })).items).toEqual([]);
  });
});

describe('a new assignment', () => {
  /** Signs `who` in again from a browser that reads `language`: their mails that answer no request of theirs use it. */
  async function signInReading(who: Person, language: string) {
    const response = await fetch(`${stack.url}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: stack.url, 'accept-language': language },
      body: JSON.stringify({ email: who.email, password: TEST_PASSWORD }),
    });
    expect(response.status).toBe(200);
  }

  const assignmentMails = async (who: Person) =>
    (await readMailbox(stack.url, who.email)).filter((mail) => /assignment|tarefa/i.test(mail.subject));

  it('is mailed to each member it is for, in their language, and not to its maker or members outside the team', async () => {
    const { owner, org, team, tag } = await academy('notice');
    const teamMember = await person('notice-team');
    const otherMember = await person('notice-other');
    await join(owner, org.id, teamMember, 'member', team.id);
    await join(owner, org.id, otherMember);
    await signInReading(teamMember, 'pt-BR,pt;q=0.9');
    const deck = await owner.api.mutate('orgs.publishDeck', {
      organizationId: org.id,
      name: 'Cell biology',
      tagId: tag.id,
    });

    await owner.api.mutate('orgs.createAssignment', {
      organizationId: org.id,
      deckId: deck.id,
      teamId: team.id,
      dueAt: '2099-12-01T12:00:00.000Z',
      targetKind: 'cards_learned',
      targetValue: 2,
    });
    const forTeam = await nextMail(stack.url, teamMember.email, /^Nova tarefa em/);
    expect(forTeam.subject).toBe('Nova tarefa em notice Academy: Cell biology');
    expect(forTeam.text).toContain('atribuiu a você o baralho Cell biology em notice Academy');
    expect(forTeam.text).toContain('Sua meta: aprender 2 cartões até 1 de dezembro de 2099');
    expect(forTeam.text).toContain(`${stack.url}/dashboard`);

    await owner.api.mutate('orgs.createAssignment', {
      organizationId: org.id,
      deckId: deck.id,
      dueAt: '2099-12-02T12:00:00.000Z',
      targetKind: 'retention',
      targetValue: 0.9,
    });
    const forAll = await nextMail(stack.url, otherMember.email, /^New assignment in/);
    expect(forAll.text).toContain('Your goal: reach 90% retention by December 2, 2099');
    await vi.waitFor(async () => expect(await assignmentMails(teamMember)).toHaveLength(2), { timeout: 15_000 });
    // Mailed in the order assigned: the team's assignment was decided before the organization's arrived.
    expect(await assignmentMails(otherMember)).toHaveLength(1);
    expect(await assignmentMails(owner)).toEqual([]);
  });
});

describe('leaving and withdrawing', () => {
  it('archives a member’s copies when they unsubscribe, and restores them with their progress when they come back', async () => {
    const { member, deck } = await subscribedMember('leave', 'Leave');

    expect(await member.api.mutate('orgs.unsubscribe', { deckId: deck.id })).toMatchObject({ subscribed: false });
    await untilCopies(member, 3, true);
    expect(await copies(member)).toHaveLength(0);

    expect(await member.api.mutate('orgs.subscribe', { deckId: deck.id })).toMatchObject({ subscribed: true });
    await untilCopies(member, 3);
  });

  it('takes a withdrawn deck from every subscriber with its assignments, and refuses to publish an emptied tag', async () => {
    const { owner, org, tag, member, deck } = await subscribedMember('withdraw', 'Gone', 3);

    await owner.api.mutate('cards.deleteTag', { id: tag.id });
    expect(await refusal(owner.api.mutate('orgs.syncDeck', { deckId: deck.id }))).toBe('PRECONDITION_FAILED');
    expect((await member.api.query('orgs.decks', { organizationId: org.id })).items[0].cardCount).toBe(3);

    await owner.api.mutate('orgs.deleteDeck', { deckId: deck.id });
    expect((await member.api.query('orgs.decks', { organizationId: org.id })).items).toEqual([]);
    expect((await member.api.query('orgs.assignments', { organizationId: org.id })).items).toEqual([]);
    await untilCopies(member, 0);
    expect(await copies(member, true)).toHaveLength(3);
  });
});

describe('who sees what', () => {
  it('shows a guest only their own progress, and refuses them what only owners and admins may do', async () => {
    const { owner, org, tag } = await academy('guest');
    const guest = await person('guest-guest');
    const member = await person('guest-member');
    await join(owner, org.id, guest, 'guest');
    await join(owner, org.id, member);
    await owner.api.mutate('orgs.publishDeck', { organizationId: org.id, name: 'Everyone', tagId: tag.id });

    await vi.waitFor(
      async () => {
        const all = await owner.api.query('orgs.progress', { organizationId: org.id });
        expect(all.items.map((row: Json) => row.userId).sort()).toEqual([owner.id, guest.id, member.id].sort());
      },
      { timeout: 15_000, interval: 200 },
    );
    const own = await guest.api.query('orgs.progress', { organizationId: org.id });
    expect(own).toMatchObject({ allMembers: false, items: [{ userId: guest.id }] });
    expect(
      await refusal(guest.api.mutate('orgs.publishDeck', { organizationId: org.id, name: 'Mine', tagId: tag.id })),
    ).toBe('FORBIDDEN');
    const deck = (await guest.api.query('orgs.decks', { organizationId: org.id })).items[0];
    expect(
      await refusal(
        guest.api.mutate('orgs.createAssignment', {
          organizationId: org.id,
          deckId: deck.id,
          dueAt: tomorrow(),
          targetKind: 'retention',
          targetValue: 0.9,
        }),
      ),
    ).toBe('FORBIDDEN');
    expect(await refusal(guest.api.mutate('orgs.deleteDeck', { deckId: deck.id }))).toBe('FORBIDDEN');
    expect(await refusal(guest.api.mutate('orgs.syncDeck', { deckId: deck.id }))).toBe('FORBIDDEN');
  });

  it('takes everything away from a removed member at once, and ends their subscription', async () => {
    const { owner, org, member, deck } = await subscribedMember('removed', 'Leaving');

    await organization(owner, 'remove-member', { memberIdOrEmail: member.email, organizationId: org.id });
    expect(await refusal(member.api.query('orgs.decks', { organizationId: org.id }))).toBe('NOT_FOUND');
    expect(await refusal(member.api.query('orgs.progress', { organizationId: org.id }))).toBe('NOT_FOUND');
    expect(await refusal(member.api.mutate('orgs.subscribe', { deckId: deck.id }))).toBe('NOT_FOUND');
    await vi.waitFor(
      async () => {
        expect(await copies(member)).toHaveLength(0);
        expect(await copies(member, true)).toHaveLength(3);
        expect((await member.api.query('orgs.assignments', undefined)).items).toEqual([]);
        expect((await owner.api.query('orgs.decks', { organizationId: org.id })).items[0].subscriberCount).toBe(0);
      },
      { timeout: 15_000, interval: 200 },
    );
  });

  it('takes everything away when the organization is deleted', async () => {
    const { owner, org, member, deck } = await subscribedMember('deleted', 'Closing', 1);
    expect((await member.api.query('orgs.assignments', undefined)).items).toHaveLength(1);

    await organization(owner, 'delete', { organizationId: org.id });
    expect(await refusal(member.api.query('orgs.decks', { organizationId: org.id }))).toBe('NOT_FOUND');
    expect(await refusal(owner.api.query('orgs.decks', { organizationId: org.id }))).toBe('NOT_FOUND');
    expect(await refusal(member.api.mutate('orgs.subscribe', { deckId: deck.id }))).toBe('NOT_FOUND');
    await vi.waitFor(
      async () => {
        expect((await member.api.query('orgs.assignments', undefined)).items).toEqual([]);
        expect(await copies(member)).toHaveLength(0);
        expect(await copies(member, true)).toHaveLength(3);
      },
      { timeout: 15_000, interval: 200 },
    );
  });

  it('refuses every orgs procedure to a user of another organization, whatever their role there', async () => {
    const a = await academy('target');
    const deck = await a.owner.api.mutate('orgs.publishDeck', {
      organizationId: a.org.id,
      name: 'Private',
      tagId: a.tag.id,
    });
    const assignment = await a.owner.api.mutate('orgs.createAssignment', {
      organizationId: a.org.id,
      deckId: deck.id,
      dueAt: tomorrow(),
      targetKind: 'retention',
      targetValue: 0.85,
    });
    const b = await academy('intruder');
    const intruder = b.owner;
    const calls: [string, () => Promise<unknown>][] = [
      ['decks', () => intruder.api.query('orgs.decks', { organizationId: a.org.id })],
      [
        'publishDeck',
        () => intruder.api.mutate('orgs.publishDeck', { organizationId: a.org.id, name: 'X', tagId: b.tag.id }),
      ],
      ['syncDeck', () => intruder.api.mutate('orgs.syncDeck', { deckId: deck.id })],
      ['deleteDeck', () => intruder.api.mutate('orgs.deleteDeck', { deckId: deck.id })],
      ['subscribe', () => intruder.api.mutate('orgs.subscribe', { deckId: deck.id })],
      ['unsubscribe', () => intruder.api.mutate('orgs.unsubscribe', { deckId: deck.id })],
      ['assignments', () => intruder.api.query('orgs.assignments', { organizationId: a.org.id })],
      [
        'createAssignment',
        () =>
          intruder.api.mutate('orgs.createAssignment', {
            organizationId: a.org.id,
            deckId: deck.id,
            dueAt: tomorrow(),
            targetKind: 'cards_learned',
            targetValue: 1,
          }),
      ],
      ['deleteAssignment', () => intruder.api.mutate('orgs.deleteAssignment', { assignmentId: assignment.id })],
      ['progress', () => intruder.api.query('orgs.progress', { organizationId: a.org.id })],
      [
        'progress of an assignment',
        () => intruder.api.query('orgs.progress', { organizationId: a.org.id, assignmentId: assignment.id }),
      ],
      // Their own organization's id with the other's assignment: still not theirs.
      [
        'progress across',
        () => intruder.api.query('orgs.progress', { organizationId: b.org.id, assignmentId: assignment.id }),
      ],
    ];
    for (const [name, call] of calls) expect([name, await refusal(call())]).toEqual([name, 'NOT_FOUND']);
    // Nothing changed for the organization that owns them.
    const decks = (await a.owner.api.query('orgs.decks', { organizationId: a.org.id })).items;
    expect(decks).toMatchObject([{ id: deck.id, subscriberCount: 0 }]);
    expect((await a.owner.api.query('orgs.assignments', { organizationId: a.org.id })).items).toHaveLength(1);
  });

  it('refuses bad input with a clear message and changes nothing', async () => {
    const { owner, org, tag } = await academy('input');
    const noName = await refusal(
      owner.api.mutate('orgs.publishDeck', { organizationId: org.id, name: ' ', tagId: tag.id }),
    );
    expect(noName).toBe('BAD_REQUEST');
    const emptyTag = await owner.api.mutate('cards.createTag', { name: 'empty' });
    expect(
      await refusal(
        owner.api.mutate('orgs.publishDeck', { organizationId: org.id, name: 'Empty', tagId: emptyTag.id }),
      ),
    ).toBe('PRECONDITION_FAILED');
    const deck = await owner.api.mutate('orgs.publishDeck', { organizationId: org.id, name: 'Good', tagId: tag.id });
    const assign = (overrides: Json) =>
      refusalReason(
        owner.api.mutate('orgs.createAssignment', {
          organizationId: org.id,
          deckId: deck.id,
          dueAt: tomorrow(),
          targetKind: 'cards_learned',
          targetValue: 2,
          ...overrides,
        }),
      );
    // The service's own refusals, in the words and with the reasons of the contract's rules (the form's).
    expect(await assign({ dueAt: new Date(Date.now() - 60_000).toISOString() })).toEqual([
      'BAD_REQUEST',
      'DUE_DATE_PAST',
      'The due date must be in the future.',
    ]);
    expect(await assign({ targetValue: 4 })).toEqual([
      'BAD_REQUEST',
      'TARGET_VALUE_INVALID',
      'The target must be between 1 and 3 cards.',
    ]);
    expect(await assign({ targetKind: 'retention', targetValue: 1.5 })).toEqual([
      'BAD_REQUEST',
      'TARGET_VALUE_INVALID',
      'The retention target must be between 50% and 99%.',
    ]);
    expect((await owner.api.query('orgs.assignments', { organizationId: org.id })).items).toEqual([]);
    expect((await owner.api.query('orgs.decks', { organizationId: org.id })).items).toHaveLength(1);
  });
});

/** Every page of an orgs.* list, `pageSize` at a time, following nextCursor. */
async function allPages(who: Person, path: string, input: Json, pageSize: number): Promise<Json[][]> {
  const pages: Json[][] = [];
  let cursor: string | null = null;
  do {
    const page: Json = await who.api.query(path, { ...input, pageSize, ...(cursor && { cursor }) });
    pages.push(page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return pages;
}

/** The code, domain reason and message of a refused call. */
async function refusalReason(call: Promise<unknown>): Promise<[string, string, string]> {
  try {
    await call;
  } catch (error) {
    return [(error as Json).data?.code, (error as Json).data?.reason, (error as Json).message];
  }
  return ['ALLOWED', '', ''];
}

/** The message and code of a refused call. */
async function refusalMessage(call: Promise<unknown>): Promise<[string, string]> {
  try {
    await call;
  } catch (error) {
    return [(error as Json).data?.code, (error as Json).message];
  }
  return ['ALLOWED', ''];
}

describe('long lists', () => {
  it('pages through the decks a member may see, newest first, each once, with full pages', async () => {
    const { owner, org, team, tag } = await academy('pages');
    const member = await person('pages-member');
    await join(owner, org.id, member);
    const publish = (name: string, teamId?: string) =>
      owner.api.mutate('orgs.publishDeck', { organizationId: org.id, name, tagId: tag.id, ...(teamId && { teamId }) });
    for (const name of ['First', 'Second']) await publish(name);
    // Shared with a team the member is not in: never on their pages, and never leaving one short.
    await publish('Team only', team.id);
    for (const name of ['Third', 'Fourth']) await publish(name);

    const pages = await allPages(member, 'orgs.decks', { organizationId: org.id }, 2);
    expect(pages.map((page) => page.map((deck) => deck.name))).toEqual([
      ['Fourth', 'Third'],
      ['Second', 'First'],
    ]);
    const ownerPages = await allPages(owner, 'orgs.decks', { organizationId: org.id }, 2);
    expect(ownerPages.map((page) => page.length)).toEqual([2, 2, 1]);
    expect(ownerPages.flat().map((deck) => deck.name)).toEqual(['Fourth', 'Third', 'Team only', 'Second', 'First']);
    // Without a page size: the first page of 50 holds them all, and says there is no other.
    expect(await member.api.query('orgs.decks', { organizationId: org.id })).toMatchObject({ nextCursor: null });
  });

  it('pages through assignments soonest due first, and members’ progress by member', async () => {
    const { owner, org, tag } = await academy('due');
    const first = await person('due-first');
    const second = await person('due-second');
    await join(owner, org.id, first);
    await join(owner, org.id, second);
    const deck = await owner.api.mutate('orgs.publishDeck', { organizationId: org.id, name: 'Due', tagId: tag.id });
    const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
    const assigned = [];
    for (const days of [3, 1, 2]) {
      assigned.push(
        await owner.api.mutate('orgs.createAssignment', {
          organizationId: org.id,
          deckId: deck.id,
          dueAt: inDays(days),
          targetKind: 'cards_learned',
          targetValue: days,
        }),
      );
    }
    const pages = await allPages(first, 'orgs.assignments', { organizationId: org.id }, 2);
    expect(pages.map((page) => page.map((assignment) => assignment.targetValue))).toEqual([[1, 2], [3]]);
    expect(
      pages
        .flat()
        .map((assignment) => assignment.id)
        .sort(),
    ).toEqual(assigned.map((a) => a.id).sort());
    // Across every organization of theirs (the dashboard), the same order.
    const everywhere = await allPages(first, 'orgs.assignments', {}, 2);
    expect(everywhere.flat().map((assignment) => assignment.targetValue)).toEqual([1, 2, 3]);

    const everyone = [owner.id, first.id, second.id];
    await vi.waitFor(
      async () => {
        const progress = await allPages(owner, 'orgs.progress', { organizationId: org.id }, 2);
        expect(progress.map((page) => page.length)).toEqual([2, 1]);
        expect(
          progress
            .flat()
            .map((row) => row.userId)
            .sort(),
        ).toEqual([...everyone].sort());
      },
      { timeout: 15_000, interval: 200 },
    );
    // A member sees only their own row: one page.
    expect(await allPages(first, 'orgs.progress', { organizationId: org.id }, 2)).toMatchObject([
      [{ userId: first.id }],
    ]);
  });

  it('refuses a page over the maximum and a cursor it did not hand out, with a clear message', async () => {
    const { owner, org, tag } = await academy('bounds');
    await owner.api.mutate('orgs.publishDeck', { organizationId: org.id, name: 'One', tagId: tag.id });
    await owner.api.mutate('orgs.publishDeck', { organizationId: org.id, name: 'Two', tagId: tag.id });
    const tooMany = { organizationId: org.id, pageSize: 101 };
    for (const path of ['orgs.decks', 'orgs.assignments', 'orgs.progress']) {
      expect([path, ...(await refusalMessage(owner.api.query(path, tooMany)))]).toEqual([
        path,
        'BAD_REQUEST',
        'Page size must be at most 100.',
      ]);
    }
    const { nextCursor } = await owner.api.query('orgs.decks', { organizationId: org.id, pageSize: 1 });
    const invalid = ['BAD_REQUEST', 'The cursor is not valid for this list.'];
    expect(
      await refusalMessage(owner.api.query('orgs.assignments', { organizationId: org.id, cursor: nextCursor })),
    ).toEqual(invalid);
    expect(
      await refusalMessage(owner.api.query('orgs.decks', { organizationId: org.id, cursor: 'not-a-cursor' })),
    ).toEqual(invalid);
    expect(
      await refusalMessage(owner.api.query('orgs.progress', { organizationId: org.id, cursor: nextCursor })),
    ).toEqual(invalid);
  });
});
