// Shared decks in an organization (issue 13), in a real Chromium through the real gateway and every
// service: an owner creates an organization and a team, invites a learner by mail, shares a tag's cards
// with the team as a deck and assigns it; the learner accepts, subscribes from the dashboard, practises the
// copies, and the owner sees their progress; a guest sees only their own; a removed member loses access; the owner
// removes the assignment and withdraws the deck after confirming.
// Cards, team rosters and the guest's organization are set up through the API, where the UI is not the point.
import { SHARED_DECK_PAGE_SIZE } from '@engram/contracts/shared-decks';
import { openTestPage, useBrowserStack } from '@engram/testkit/browser';
import { linkIn, nextMail } from '@engram/testkit/mailbox';
import { signUpThroughGateway } from '@engram/testkit/stack';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { trpcClient } from '../support/trpc-client.ts';
import { authCall, newUser, signUpAndOnboard, useSessionCookie } from './support/auth.ts';
import { accessibilityViolations } from './support/axe.ts';
import { sticksOut } from './support/layout.ts';
import { PHONE } from './support/screens.ts';

const env = useBrowserStack();

const openPage = (name: string) => openTestPage(env.browser, name, { bypassCSP: true, locale: 'en-US' });

// biome-ignore lint/suspicious/noExplicitAny: answers of better-auth and tRPC, read field by field
type Json = any;

/** better-auth's endpoints with the page's session, as the app calls them. */
const auth = (page: Page, path: string, body?: unknown): Promise<Json> => authCall(page, env.stack.url, path, body);

/** A tRPC mutation with the page's session. */
async function mutate(page: Page, procedure: string, input: unknown): Promise<Json> {
  const response = await page.request.post(`${env.stack.url}/api/trpc/${procedure}`, {
    data: input,
    headers: { origin: env.stack.url },
  });
  if (!response.ok()) throw new Error(`${procedure}: ${response.status()} ${await response.text()}`);
  return (await response.json()).result.data;
}

/** A tag of three cards of the page's user. */
async function cellCards(page: Page, tagName: string) {
  const tag = await mutate(page, 'cards.createTag', { name: tagName });
  for (const [front, back] of [
    ['What is the powerhouse of the cell?', 'The mitochondrion'],
    ['What holds the genome?', 'The nucleus'],
    ['What makes proteins?', 'The ribosome'],
  ]) {
    await mutate(page, 'cards.create', { front, back, tagIds: [tag.id] });
  }
  return tag;
}

/**
 * What another process brings a moment later (copies of cards, progress from review events): opens `path`
 * afresh, runs `prepare`, and waits a little for `target`, until it shows.
 */
async function reloadUntil(page: Page, path: string, target: Locator, prepare?: () => Promise<unknown>) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    await page.goto(`${env.stack.url}${path}`);
    await prepare?.();
    try {
      await target.waitFor({ timeout: 2_000 });
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
  }
}

const inAWeek = () => new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);

describe('shared decks in an organization', () => {
  it('shares a deck with a team and assigns it; a member subscribes and practises, and the owner sees their progress; removed, they lose access', async () => {
    const owner = await openPage('together-owner');
    await signUpAndOnboard(owner, env.stack.url, newUser('owner'));
    await owner.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Organizations' }).click();
    const slug = `cell-club-${Date.now().toString(36)}`;
    await owner.getByRole('button', { name: 'Create organization' }).first().click();
    const create = owner.getByRole('dialog');
    await create.getByLabel('Name').fill('Cell Club');
    await create.getByLabel('Slug').fill(slug);
    await create.getByRole('button', { name: 'Create organization' }).click();
    await owner.waitForURL(`${env.stack.url}/organization/${slug}`);

    // The organization's screens lead to its learning view, empty so far.
    await owner
      .getByRole('navigation', { name: 'Organization sections' })
      .getByRole('link', { name: 'Learning' })
      .click();
    await owner.waitForURL(`${env.stack.url}/organization/${slug}/learning`);
    await owner.getByRole('heading', { name: 'Learning in Cell Club' }).waitFor();
    await owner.getByText('No decks are shared yet. Share one of your tags below.').waitFor();
    await owner.getByText('No assignments yet.').waitFor();

    await owner.goto(`${env.stack.url}/organization/${slug}/teams`);
    await owner.getByRole('button', { name: 'Create team' }).first().click();
    const team = owner.getByRole('dialog');
    await team.getByLabel('Team name').fill('Biology');
    await team.getByRole('button', { name: 'Create team' }).click();
    await owner.getByText('Team created').waitFor();

    const learner = newUser('member');
    await owner.goto(`${env.stack.url}/organization/${slug}/members`);
    await owner.getByRole('button', { name: 'Invite member' }).click();
    const invite = owner.getByRole('dialog');
    await invite.getByLabel('Email').fill(learner.email);
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await owner.getByText(learner.email).first().waitFor();
    const invitation = linkIn(await nextMail(env.stack.url, learner.email, /invited you to Cell Club/));

    const member = await openPage('together-member');
    await signUpAndOnboard(member, env.stack.url, learner);
    await member.goto(invitation);
    // The link lands on the dashboard with that invitation first.
    await member.waitForURL(
      `${env.stack.url}/dashboard?invitation=${new URL(invitation).searchParams.get('invitationId')}`,
    );
    await member.getByRole('region', { name: 'Invitations' }).getByRole('button', { name: 'Accept' }).click();
    await member.getByText('Invitation accepted').waitFor();

    const organization = await auth(owner, `organization/get-full-organization?organizationSlug=${slug}`);
    const biology = organization.teams.find((candidate: Json) => candidate.name === 'Biology');
    const memberId = (await auth(member, 'get-session')).user.id;
    await auth(owner, 'organization/add-team-member', { teamId: biology.id, userId: memberId });
    await cellCards(owner, 'cells');

    // The owner shares the tag with the team and assigns the deck.
    await owner.goto(`${env.stack.url}/organization/${slug}/learning`);
    const share = owner.getByRole('form', { name: 'Share a deck' });
    await share.getByLabel('Deck name').fill('Cell biology');
    await share.getByLabel('Description (optional)').fill('The parts of a cell');
    await share.getByLabel('Tag').selectOption({ label: 'cells' });
    await share.getByLabel('Shared with').selectOption({ label: 'Biology' });
    await share.getByRole('button', { name: 'Share deck' }).click();
    await owner.getByText('Deck Cell biology shared.').waitFor();
    const deck = owner.getByRole('article', { name: 'Cell biology' });
    await deck.getByText('Biology · 3 cards · 0 subscribers').waitFor();

    const assign = owner.getByRole('form', { name: 'Assign a deck' });
    await assign.getByLabel('Deck', { exact: true }).selectOption({ label: 'Cell biology' });
    expect(await assign.getByLabel('Assigned to').inputValue()).toBe(biology.id);
    await assign.getByLabel('Due date').fill(inAWeek());
    await assign.getByLabel('Cards to learn').fill('5');
    await assign.getByRole('button', { name: 'Assign deck' }).click();
    await assign.getByText('The target must be between 1 and 3 cards.').waitFor();
    await assign.getByLabel('Cards to learn').fill('2');
    await assign.getByRole('button', { name: 'Assign deck' }).click();
    await owner.getByText('Deck Cell biology assigned.').waitFor();
    const assignment = owner.getByRole('list', { name: 'Assignments' }).getByRole('article', { name: 'Cell biology' });
    await assignment.getByText(/Target: 2 cards learned/).waitFor();
    expect(await accessibilityViolations(owner)).toEqual([]);

    // The member finds the assignment on the dashboard and subscribes there.
    await member.goto(`${env.stack.url}/dashboard`);
    const panel = member.getByRole('region', { name: 'Your assignments' });
    await panel.getByText('Cell biology in Cell Club').waitFor();
    await panel.getByText('Your progress: not started').waitFor();
    await panel.getByRole('button', { name: 'Subscribe' }).click();
    await member.getByText(/^Subscribed/).waitFor();
    await panel.getByRole('button', { name: 'Subscribe' }).waitFor({ state: 'detached' });
    await panel.getByRole('link', { name: 'Open Cell Club' }).click();
    await member.waitForURL(`${env.stack.url}/organization/${slug}/learning`);
    await member.getByRole('article', { name: 'Cell biology' }).getByRole('button', { name: 'Unsubscribe' }).waitFor();
    await member.getByText("You see your own progress only; owners and admins see every member's.").waitFor();
    expect(await member.getByRole('form', { name: 'Share a deck' }).count()).toBe(0);
    expect(await member.getByRole('button', { name: 'Withdraw' }).count()).toBe(0);
    expect(await accessibilityViolations(member)).toEqual([]);

    // The copies arrive through events, tagged with the deck's name; the member practises them.
    const deckTag = member.getByRole('button', { name: 'Cell biology' });
    await reloadUntil(member, '/practice/new', deckTag);
    await deckTag.click();
    await member.getByText('Due now: 3').waitFor();
    await member.getByRole('link', { name: 'Start' }).click();
    for (let card = 0; card < 3; card++) {
      await member.getByRole('button', { name: /^Show answer/ }).waitFor();
      await member.keyboard.press('Space');
      await member.getByRole('region', { name: 'Answer' }).waitFor();
      await member.keyboard.press('4');
    }
    await member.waitForURL(/\/practice\/done\?/);

    // The owner sees the member's progress on the assignment (its team's roster): all three learned, the target met.
    const memberRow = owner.getByRole('table', { name: 'Progress' }).getByRole('row', { name: /Member Tester/ });
    await reloadUntil(owner, `/organization/${slug}/learning`, memberRow.getByRole('cell', { name: '3 of 3' }), () =>
      owner.getByLabel('Show progress for').selectOption({ label: 'Cell biology' }),
    );
    const [reviews, learned, , streak, targetMet] = await memberRow.getByRole('cell').allInnerTexts();
    expect({ reviews, learned, streak, targetMet }).toEqual({
      reviews: '3',
      learned: '3 of 3',
      streak: '1 d',
      targetMet: 'Yes',
    });
    // On a phone the same figures make the member's card, named, where the table would scroll sideways.
    const desktop = owner.viewportSize();
    await owner.setViewportSize({ width: 390, height: 844 });
    const memberCard = owner.getByRole('list', { name: 'Progress' }).getByRole('listitem', { name: /Member Tester/ });
    await memberCard.waitFor();
    const [phoneReviews, phoneLearned, , phoneStreak, phoneTarget] = await memberCard
      .getByRole('definition')
      .allInnerTexts();
    expect({
      figures: [phoneReviews, phoneLearned, phoneStreak, phoneTarget],
      table: await owner.getByRole('table', { name: 'Progress' }).isVisible(),
      sticksOut: await sticksOut(owner),
    }).toEqual({ figures: ['3', '3 of 3', '1 d', 'Yes'], table: false, sticksOut: [] });
    if (desktop) await owner.setViewportSize(desktop);

    // Removed, the member loses the organization: its learning view sends them home, its assignments go.
    await auth(owner, 'organization/remove-member', {
      memberIdOrEmail: learner.email,
      organizationId: organization.id,
    });
    await member.goto(`${env.stack.url}/organization/${slug}/learning`);
    await member.waitForURL(`${env.stack.url}/dashboard`);
    const refused = await member.request.get(
      `${env.stack.url}/api/trpc/orgs.decks?input=${encodeURIComponent(JSON.stringify({ organizationId: organization.id }))}`,
    );
    expect(refused.status()).toBe(404);
    await expect
      .poll(
        async () => {
          await member.reload();
          await member.getByTestId('due-today').waitFor();
          return member.getByRole('region', { name: 'Your assignments' }).count();
        },
        { timeout: 30_000 },
      )
      .toBe(0);

    // The owner removes the assignment and withdraws the deck, each only once they say yes to its question.
    await owner.goto(`${env.stack.url}/organization/${slug}/learning`);
    await assignment.getByRole('button', { name: 'Remove' }).click();
    const removal = owner.getByRole('dialog', { name: 'Remove the assignment of Cell biology?' });
    await removal.getByRole('button', { name: 'Cancel' }).click();
    await removal.waitFor({ state: 'hidden' });
    await assignment.getByRole('button', { name: 'Remove' }).click();
    await removal.getByRole('button', { name: 'Remove' }).click();
    await owner.getByText('Assignment removed.').waitFor();
    await owner.getByText('No assignments yet.').waitFor();
    await removal.waitFor({ state: 'hidden' });
    await deck.getByRole('button', { name: 'Withdraw' }).click();
    await owner
      .getByRole('dialog', { name: 'Withdraw Cell biology?' })
      .getByRole('button', { name: 'Withdraw' })
      .click();
    await owner.getByText('Deck withdrawn.').waitFor();
    await owner.getByText('No decks are shared yet. Share one of your tags below.').waitFor();
  });

  it('shows a guest the decks, a page at a time, and only their own progress, without the controls of owners and admins', async () => {
    const owner = await openPage('together-guest-owner');
    await signUpAndOnboard(owner, env.stack.url, newUser('host'));
    const slug = `guest-club-${Date.now().toString(36)}`;
    const organization = await auth(owner, 'organization/create', { name: 'Guest Club', slug });
    const tag = await cellCards(owner, 'organelles');
    const deck = await mutate(owner, 'orgs.publishDeck', {
      organizationId: organization.id,
      name: 'Organelles',
      tagId: tag.id,
    });
    await mutate(owner, 'orgs.createAssignment', {
      organizationId: organization.id,
      deckId: deck.id,
      dueAt: new Date(Date.now() + 86_400_000).toISOString(),
      targetKind: 'retention',
      targetValue: 0.9,
    });
    // A full first page of newer decks (SHARED_DECK_PAGE_SIZE): Organelles comes with "Load more".
    const newer = await mutate(owner, 'cards.createTag', { name: 'newer' });
    await mutate(owner, 'cards.create', { front: 'What is a cell?', back: 'The unit of life', tagIds: [newer.id] });
    for (let n = 1; n <= SHARED_DECK_PAGE_SIZE; n++) {
      await mutate(owner, 'orgs.publishDeck', { organizationId: organization.id, name: `Newer ${n}`, tagId: newer.id });
    }

    const visitor = newUser('guest');
    const guest = await openPage('together-guest');
    await signUpAndOnboard(guest, env.stack.url, visitor);
    await auth(owner, 'organization/invite-member', {
      email: visitor.email,
      role: 'guest',
      organizationId: organization.id,
    });
    const link = linkIn(await nextMail(env.stack.url, visitor.email, /invited you to Guest Club/));
    await auth(guest, 'organization/accept-invitation', {
      invitationId: new URL(link).searchParams.get('invitationId'),
    });

    const ownRow = guest.getByRole('table', { name: 'Progress' }).getByRole('row', { name: /Guest Tester \(you\)/ });
    await reloadUntil(guest, `/organization/${slug}/learning`, ownRow);
    const decks = guest.getByRole('list', { name: 'Shared decks' });
    await decks.getByRole('article', { name: `Newer ${SHARED_DECK_PAGE_SIZE}` }).waitFor();
    expect(await decks.getByRole('article').count()).toBe(SHARED_DECK_PAGE_SIZE);
    expect(await decks.getByRole('article', { name: 'Organelles' }).count()).toBe(0);
    const decksSection = guest.getByRole('region', { name: 'Shared decks' });
    await decksSection.getByRole('button', { name: 'Load more' }).click();
    await decks.getByRole('article', { name: 'Organelles' }).getByRole('button', { name: 'Subscribe' }).waitFor();
    expect(await decks.getByRole('article').count()).toBe(SHARED_DECK_PAGE_SIZE + 1);
    await decksSection.getByRole('button', { name: 'Load more' }).waitFor({ state: 'detached' });
    await guest
      .getByRole('list', { name: 'Assignments' })
      .getByText(/Target: 90% retention/)
      .waitFor();
    await guest.getByText("You see your own progress only; owners and admins see every member's.").waitFor();
    expect(await guest.getByRole('table', { name: 'Progress' }).locator('tbody tr').count()).toBe(1);
    expect(await guest.getByRole('form', { name: 'Share a deck' }).count()).toBe(0);
    expect(await guest.getByRole('form', { name: 'Assign a deck' }).count()).toBe(0);
    expect(await guest.getByRole('button', { name: 'Withdraw' }).count()).toBe(0);
    expect(await guest.getByRole('button', { name: 'Remove' }).count()).toBe(0);
    expect(await accessibilityViolations(guest)).toEqual([]);
  });

  it('takes a guest, in Portuguese on a phone, from the invitation with its role to their own progress as a card, and refuses them what guests may not do', async () => {
    const owner = await openPage('together-guest-pt-owner');
    await signUpAndOnboard(owner, env.stack.url, newUser('anfitria'));
    const slug = `clube-${Date.now().toString(36)}`;
    const organization = await auth(owner, 'organization/create', { name: 'Clube de Biologia', slug });
    const tag = await cellCards(owner, 'organelas');
    const deck = await mutate(owner, 'orgs.publishDeck', {
      organizationId: organization.id,
      name: 'Organelas',
      tagId: tag.id,
    });
    await mutate(owner, 'orgs.createAssignment', {
      organizationId: organization.id,
      deckId: deck.id,
      dueAt: new Date(Date.now() + 86_400_000).toISOString(),
      targetKind: 'cards_learned',
      targetValue: 3,
    });

    const email = `convidada-${Date.now().toString(36)}@example.com`;
    const cookie = await signUpThroughGateway(env.stack.url, 'Gabi Convidada', email);
    await trpcClient(env.stack.url, cookie).mutate('settings.completeOnboarding', { timezone: 'America/Sao_Paulo' });
    const guest = await openTestPage(env.browser, 'together-guest-pt', { ...PHONE, bypassCSP: true, locale: 'pt-BR' });
    await useSessionCookie(guest, env.stack.url, cookie);
    await auth(owner, 'organization/invite-member', { email, role: 'guest', organizationId: organization.id });
    const link = linkIn(
      await nextMail(env.stack.url, email, /convidou você para Clube de Biologia|invited you to Clube de Biologia/),
    );

    // The invitation names the role in the learner's language, and is accepted on the dashboard.
    await guest.goto(link);
    const invitations = guest.getByRole('region', { name: 'Convites' });
    await invitations.getByText('Você foi convidado para participar de Clube de Biologia como Convidado.').waitFor();
    expect(await sticksOut(guest)).toEqual([]);
    await invitations.getByRole('button', { name: 'Aceitar' }).click();
    await invitations.waitFor({ state: 'detached' });

    // Their own progress, as a card on a phone; none of the controls of owners and admins.
    const ownCard = guest
      .getByRole('list', { name: 'Progresso' })
      .getByRole('listitem', { name: /Gabi Convidada \(você\)/ });
    await reloadUntil(guest, `/organization/${slug}/learning`, ownCard);
    await guest
      .getByText('Você vê apenas o seu progresso; proprietários e administradores veem o de todos os membros.')
      .waitFor();
    expect(await guest.getByRole('list', { name: 'Progresso' }).getByRole('listitem').count()).toBe(1);
    expect(await guest.getByRole('form', { name: 'Compartilhar um baralho' }).count()).toBe(0);
    expect(await guest.getByRole('form', { name: 'Atribuir um baralho' }).count()).toBe(0);
    expect(await guest.getByRole('button', { name: 'Retirar' }).count()).toBe(0);
    expect(await guest.getByRole('button', { name: 'Remover' }).count()).toBe(0);
    expect(await sticksOut(guest)).toEqual([]);
    expect(await accessibilityViolations(guest)).toEqual([]);
    // The service refuses them too, whatever the screen shows.
    const refused = await guest.request.post(`${env.stack.url}/api/trpc/orgs.publishDeck`, {
      data: { organizationId: organization.id, name: 'Minhas', tagId: tag.id },
      headers: { origin: env.stack.url },
    });
    expect(refused.status()).toBe(403);
  });
});
