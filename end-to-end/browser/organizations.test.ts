// Organizations in a real Chromium through the real gateway: an owner creates one (slug mode), invites a
// learner by mail (read from the dev mailbox), creates a team; the learner opens the invitation link,
// lands on the dashboard with the invitation and accepts it; the owner sees them among the members. An owner
// makes a custom role with its permissions, offers it and guest by their labels, in both languages; its member may
// do what it allows (share a deck) until the owner gives them another role on screen; it cannot be deleted while
// someone holds it.
import { openTestPage, useBrowserStack } from '@engram/testkit/browser';
import { linkIn, nextMail } from '@engram/testkit/mailbox';
import { describe, expect, it } from 'vitest';
import { authCall, newUser, signUpAndOnboard } from './support/auth.ts';
import { accessibilityViolations } from './support/axe.ts';

const env = useBrowserStack();

const openPage = (name: string) => openTestPage(env.browser, name, { bypassCSP: true, locale: 'en-US' });

describe('an organization', () => {
  it('is created by its owner, who invites a learner by mail; the learner accepts and is listed', async () => {
    const owner = await openPage('org-owner');
    await signUpAndOnboard(owner, env.stack.url, newUser('owner'));
    await owner.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Organizations' }).click();
    await owner.waitForURL(`${env.stack.url}/account/organizations`);

    const slug = `study-club-${Date.now().toString(36)}`;
    await owner.getByRole('button', { name: 'Create organization' }).first().click();
    const create = owner.getByRole('dialog');
    await create.getByLabel('Name').fill('Study Club');
    await create.getByLabel('Slug').fill(slug);
    await create.getByRole('button', { name: 'Create organization' }).click();
    await owner.waitForURL(`${env.stack.url}/organization/${slug}`);
    await owner.getByRole('heading', { name: 'Organization' }).waitFor();
    // Settled: the settings show the organization (its logo, name and slug cards have loaded).
    await owner.locator(`input[value="${slug}"]`).waitFor();
    await owner.getByRole('button', { name: 'Logo' }).waitFor();
    expect(await accessibilityViolations(owner)).toEqual([]);

    await owner.goto(`${env.stack.url}/organization/${slug}/members`);
    const learner = newUser('learner');
    await owner.getByRole('button', { name: 'Invite member' }).click();
    const invite = owner.getByRole('dialog');
    await invite.getByLabel('Email').fill(learner.email);
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await owner.getByText(learner.email).first().waitFor();

    const mail = await nextMail(env.stack.url, learner.email, /invited you to Study Club/);
    const link = linkIn(mail);
    expect(new URL(link).pathname).toBe('/auth/accept-invitation');

    const member = await openPage('org-learner');
    await signUpAndOnboard(member, env.stack.url, learner);
    // Signed in, the invitation link leads to the dashboard (docs/product.md#auth-views), where the invitation waits.
    await member.goto(link);
    await member.waitForURL(`${env.stack.url}/dashboard?invitation=${new URL(link).searchParams.get('invitationId')}`);
    const invitations = member.getByRole('region', { name: 'Invitations' });
    await invitations.getByText('You are invited to join Study Club as Member.').waitFor();
    expect(await accessibilityViolations(member)).toEqual([]);
    await invitations.getByRole('button', { name: 'Accept' }).click();
    await member.getByText('Invitation accepted').waitFor();
    await invitations.waitFor({ state: 'detached' });

    await member.goto(`${env.stack.url}/account/organizations`);
    await member.getByText('Study Club').first().waitFor();

    await owner.reload();
    await owner.getByText(learner.email).first().waitFor();
    await expect.poll(() => owner.getByText('Pending').count()).toBe(0);
  });

  it('sends an unknown slug to the personal path', async () => {
    const page = await openPage('org-unknown');
    await signUpAndOnboard(page, env.stack.url, newUser('wanderer'));
    await page.goto(`${env.stack.url}/organization/no-such-club/members`);
    await page.waitForURL(`${env.stack.url}/dashboard`);
  });

  it('switches between the user’s organizations with the switcher, and back to the personal dashboard', async () => {
    const page = await openPage('org-switcher');
    await signUpAndOnboard(page, env.stack.url, newUser('switcher'));
    const stamp = Date.now().toString(36);
    for (const [name, slug] of [
      ['Chess Club', `chess-${stamp}`],
      ['Go Club', `go-${stamp}`],
    ]) {
      const response = await page.request.post(`${env.stack.url}/api/auth/organization/create`, {
        data: { name, slug },
        headers: { origin: env.stack.url },
      });
      expect(response.status()).toBe(200);
    }
    await page.goto(`${env.stack.url}/organization/chess-${stamp}`);
    await page
      .getByRole('button', { name: /Chess Club/ })
      .first()
      .click();
    await page.getByRole('menuitem', { name: /Go Club/ }).click();
    await page.waitForURL(`${env.stack.url}/organization/go-${stamp}`);
    await page.locator(`input[value="go-${stamp}"]`).waitFor();
    await page
      .getByRole('button', { name: /Go Club/ })
      .first()
      .click();
    await page.getByRole('menuitem', { name: /Personal Account|Switcher Tester/ }).click();
    await page.waitForURL(`${env.stack.url}/dashboard`);
  });

  it('has roles its owner makes, offers by their labels in both languages, and keeps while someone holds them', async () => {
    const owner = await openPage('roles-owner');
    await signUpAndOnboard(owner, env.stack.url, newUser('roleowner'));
    const slug = `role-club-${Date.now().toString(36)}`;
    await authCall(owner, env.stack.url, 'organization/create', { name: 'Role Club', slug });
    await owner.goto(`${env.stack.url}/organization/${slug}/members`);
    const roles = owner.getByRole('region', { name: 'Roles' });
    await roles.getByText('No custom roles yet.').waitFor();

    // A new role: its name follows the label, and a label over the limit is refused as it is typed.
    const form = roles.getByRole('form', { name: 'New role' });
    await form.getByLabel('Label').fill('x'.repeat(33));
    await form.getByText('A role label must be 1 to 32 characters.').waitFor();
    await form.getByLabel('Label').fill('Head coach');
    expect(await form.getByLabel('Name').inputValue()).toBe('head-coach');
    await form.getByRole('group', { name: 'Shared decks' }).getByLabel('Add').check();
    await form.getByRole('group', { name: "Everyone's progress" }).getByLabel('See').check();
    await form.getByRole('button', { name: 'Create role' }).click();
    await owner.getByText('Role Head coach created').waitFor();
    const coach = roles.getByRole('article', { name: 'Head coach' });
    await coach.getByText("Shared decks: Add · Everyone's progress: See").waitFor();
    expect(await accessibilityViolations(owner)).toEqual([]);

    // Invited by its label, beside guest: every role the organization has is offered.
    const learner = newUser('rolelearner');
    await owner.getByRole('button', { name: 'Invite member' }).click();
    const invite = owner.getByRole('dialog');
    await invite.getByLabel('Email').fill(learner.email);
    await invite.getByRole('combobox', { name: 'Role' }).click();
    await owner.getByRole('option', { name: 'Guest' }).waitFor();
    await owner.getByRole('option', { name: 'Head coach' }).click();
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await owner.getByText(learner.email).first().waitFor();
    await coach.getByText('Offered in 1 pending invitation').waitFor();

    // The invited learner reads the role by its label, in Portuguese around it.
    const member = await openPage('roles-learner');
    await signUpAndOnboard(member, env.stack.url, learner);
    await member.getByLabel('Language').selectOption('pt-BR');
    const invitations = member.getByRole('region', { name: 'Convites' });
    await invitations.getByText('Você foi convidado para participar de Role Club como Head coach.').waitFor();
    await invitations.getByRole('button', { name: 'Aceitar' }).click();
    await invitations.waitFor({ state: 'detached' });
    // A member sees who holds what by its label, and not the roles' permissions, which are not theirs to change.
    await member.goto(`${env.stack.url}/organization/${slug}/members`);
    await member.getByText('Head coach').first().waitFor();
    await member.getByText('Proprietário').first().waitFor();
    expect(await member.getByRole('region', { name: 'Papéis' }).count()).toBe(0);

    // Held, the role is not deleted: the screen says what to do first.
    await owner.reload();
    await coach.getByText('Held by 1 member').waitFor();
    await coach.getByRole('button', { name: 'Delete Head coach' }).click();
    await coach
      .getByText('To delete it, give its members another role and cancel its pending invitations first.')
      .waitFor();
    expect(await owner.getByRole('dialog').isVisible()).toBe(false);

    // The role does what it says: its member may share a deck (Shared decks: Add), which a member may not.
    await member.goto(`${env.stack.url}/organization/${slug}/learning`);
    const share = member.getByRole('form', { name: 'Compartilhar um baralho' });
    await share.waitFor();

    // Its member given another role on screen (the member's menu, Update role), the role goes after a confirmation.
    const row = owner.getByText(learner.email).first().locator('xpath=ancestor::div[3]');
    await row.getByRole('button', { name: 'More actions' }).click();
    await owner.getByRole('menuitem', { name: 'Update role' }).click();
    const update = owner.getByRole('dialog');
    await update.getByRole('combobox').click();
    await owner.getByRole('option', { name: 'Guest' }).click();
    await update.getByRole('button', { name: 'Update role' }).click();
    await owner.getByText('Member role updated').waitFor();
    await row.getByText('Guest', { exact: true }).waitFor();
    await coach.getByText('Held by 1 member').waitFor({ state: 'detached' });
    // A guest shares nothing.
    await member.reload();
    await member.getByRole('heading', { name: /^Aprendizagem em Role Club$/ }).waitFor();
    expect(await share.count()).toBe(0);
    await coach.getByRole('button', { name: 'Delete Head coach' }).click();
    const confirm = owner.getByRole('dialog', { name: 'Delete the role Head coach?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await owner.getByText('Role Head coach deleted').waitFor();
    await roles.getByText('No custom roles yet.').waitFor();
    await owner.reload();
    await owner.getByText('Guest').first().waitFor();
  });
});
