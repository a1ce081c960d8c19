// Flows that end where the learner meant (issue 25), in a real Chromium through the real gateway, with mail
// read from the dev mailbox: after sign-up a screen names the address and sends the link again; "Welcome" for
// a new learner and "Welcome back" after; the password fields state the minimum; an invitation opened while
// signed out survives sign-up, verification and onboarding; a new organization's slug follows its name; and
// a banned learner's open tab goes to /suspended, which gives the reason and the support address.
import { followVerificationMail, openTestPage, useBrowserStack } from '@engram/testkit/browser';
import { linkIn, nextMail, readMailbox } from '@engram/testkit/mailbox';
import { SHARED_SUPPORT_EMAIL as SUPPORT_EMAIL } from '@engram/testkit/shared-stack';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { fillSignIn, fillSignUp, newUser, signUp, signUpAndOnboard, type TestUser } from './support/auth.ts';
import { accessibilityViolations } from './support/axe.ts';
import { makeAdmin, userIdOf } from './support/database.ts';
import { LAPTOP } from './support/screens.ts';

const env = useBrowserStack();

const openPage = (name: string, locale = 'en-US') =>
  openTestPage(env.browser, name, { ...LAPTOP, bypassCSP: true, locale });

const VERIFICATION = /^Verify your email/;

/** How many verification mails `email` has received. */
const verificationMails = async (email: string) =>
  (await readMailbox(env.stack.url, email)).filter((mail) => VERIFICATION.test(mail.subject)).length;

/** The text of the element the keyboard is on, and of the list item around it. */
const focused = (page: Page) =>
  page.evaluate(
    '({ text: document.activeElement?.textContent ?? "", item: document.activeElement?.closest("li")?.textContent ?? "" })',
  ) as Promise<{ text: string; item: string }>;

/** The accessible description of a form field (the texts its aria-describedby names that are on the page). */
async function descriptionOf(page: Page, label: string): Promise<string> {
  const ids = (await page.getByLabel(label, { exact: true }).getAttribute('aria-describedby')) ?? '';
  const texts: string[] = [];
  for (const id of ids.split(/\s+/).filter(Boolean)) {
    const part = page.locator(`[id="${id}"]`);
    if ((await part.count()) > 0) texts.push(((await part.textContent()) ?? '').trim());
  }
  return texts.join(' ');
}

/** A call to identity's API from the signed-in page, as its own screens make it. */
async function authApi<T>(page: Page, path: string, data: object): Promise<T> {
  const response = await page.request.post(`${env.stack.url}/api/auth${path}`, {
    data,
    headers: { origin: env.stack.url },
  });
  expect(response.status(), `${path}: ${await response.text()}`).toBe(200);
  return (await response.json()) as T;
}

describe('after signing up', () => {
  it('names the address the link went to, sends it again on request, and says how long to wait when asked too often', async () => {
    const page = await openPage('check-inbox');
    const user = newUser('inbox');
    await fillSignUp(page, env.stack.url, user);
    await page.waitForURL(`${env.stack.url}/auth/sign-in`);
    const notice = page.getByRole('region', { name: 'Check your inbox' });
    await notice.getByText(user.email, { exact: true }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await nextMail(env.stack.url, user.email, VERIFICATION);

    const resend = notice.getByRole('button', { name: 'Send the link again' });
    await resend.click();
    await page.getByText(`A new link is on its way to ${user.email}.`).first().waitFor();
    await nextMail(env.stack.url, user.email, VERIFICATION, 1);
    // identity sends at most three links a minute; the fourth is refused with the wait.
    for (const sent of [2, 3]) {
      await resend.click();
      await expect.poll(() => verificationMails(user.email)).toBe(sent + 1);
      await page.locator('button[aria-busy="true"]').waitFor({ state: 'detached' });
    }
    await resend.click();
    await page.getByText(/Please wait \d+ seconds before asking for another\./).waitFor();
    expect(await verificationMails(user.email)).toBe(4);

    // A reload keeps the notice; the newest link signs the learner in.
    await page.reload();
    await notice.getByText(user.email, { exact: true }).waitFor();
    await followVerificationMail(page, env.stack.url, user.email);
    await page.waitForURL(`${env.stack.url}/onboarding`);
  });

  it('lets the learner sign up with another address instead, keeping where they were headed', async () => {
    const page = await openPage('check-inbox-other');
    const user = newUser('typo');
    await page.goto(`${env.stack.url}/auth/sign-up?redirectTo=%2Fsettings`);
    await page.getByLabel('Name', { exact: true }).fill(user.name);
    await page.getByLabel('Username').fill(user.username);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`${env.stack.url}/auth/sign-in?redirectTo=%2Fsettings`);
    const notice = page.getByRole('region', { name: 'Check your inbox' });
    await notice.getByRole('button', { name: 'Use another address' }).click();
    await page.waitForURL(`${env.stack.url}/auth/sign-up?redirectTo=%2Fsettings`);
    await page.getByLabel('Email').waitFor();
    expect(await notice.count()).toBe(0);
  });
});

describe('the greeting', () => {
  it('welcomes a new learner, and welcomes them back after they sign in again, in both languages', async () => {
    const page = await openPage('greeting');
    const user = { ...newUser('greeted'), name: 'Grace Hopper' };
    await signUpAndOnboard(page, env.stack.url, user);
    await page.getByText('Welcome, Grace.').waitFor();
    await page.getByLabel('Language').selectOption('pt-BR');
    await page.getByText('Boas-vindas, Grace.').waitFor();
    await page.getByLabel('Idioma').selectOption('en');

    await page.goto(`${env.stack.url}/auth/sign-out`);
    await page.waitForURL(/\/auth\/sign-in/);
    await fillSignIn(page, user.email, user.password);
    await page.waitForURL(`${env.stack.url}/dashboard`);
    await page.getByText('Welcome back, Grace.').waitFor();
    await page.getByLabel('Language').selectOption('pt-BR');
    await page.getByText('Olá de novo, Grace.').waitFor();
  });
});

describe('a new password', () => {
  it('states the minimum length on sign-up and on the reset form, in both languages', async () => {
    const page = await openPage('password-hint');
    for (const [path, label] of [
      ['/auth/sign-up', 'Password'],
      ['/auth/reset-password?token=x', 'New password'],
    ] as const) {
      await page.goto(`${env.stack.url}${path}`);
      await page.getByLabel(label, { exact: true }).waitFor();
      expect(await descriptionOf(page, label)).toBe('Please use 8 characters at minimum.');
    }

    const portuguese = await openPage('password-hint-pt', 'pt-BR');
    await portuguese.goto(`${env.stack.url}/auth/sign-up`);
    await portuguese.getByLabel('Senha', { exact: true }).waitFor();
    expect(await descriptionOf(portuguese, 'Senha')).toBe('Use pelo menos 8 caracteres.');
  });

  it('states the minimum when changing the password in the account settings', async () => {
    const page = await openPage('password-hint-change');
    await signUpAndOnboard(page, env.stack.url, newUser('changer'));
    await page.goto(`${env.stack.url}/account/security`);
    await page.getByText('Please use 8 characters at minimum.').waitFor();
  });
});

describe('an invitation opened while signed out', () => {
  it('is shown first and focused on the dashboard after sign-up, verification and onboarding, and is accepted', async () => {
    const owner = await openPage('invite-owner');
    await signUpAndOnboard(owner, env.stack.url, newUser('inviter'));
    const invitee: TestUser = newUser('invitee');
    const stamp = Date.now().toString(36);
    const invite = async (name: string) => {
      const organization = await authApi<{ id: string }>(owner, '/organization/create', {
        name,
        slug: `${name.toLowerCase().replace(' ', '-')}-${stamp}`,
      });
      await authApi(owner, '/organization/invite-member', {
        email: invitee.email,
        role: 'member',
        organizationId: organization.id,
      });
    };
    await invite('Chess Club');
    await invite('Go Club');
    const link = linkIn(await nextMail(env.stack.url, invitee.email, /invited you to Go Club/));
    const invitationId = new URL(link).searchParams.get('invitationId');

    // Signed out, the link asks to sign in; the learner has no account yet and signs up instead.
    const page = await openPage('invitee');
    await page.goto(link);
    await page.waitForURL(/\/auth\/sign-in\?redirectTo=/);
    await page.getByRole('link', { name: 'Sign up' }).click();
    await page.waitForURL(/\/auth\/sign-up\?redirectTo=/);
    expect(new URL(page.url()).searchParams.get('redirectTo')).toBe(new URL(link).pathname + new URL(link).search);
    await page.getByLabel('Name', { exact: true }).fill(invitee.name);
    await page.getByLabel('Username').fill(invitee.username);
    await page.getByLabel('Email').fill(invitee.email);
    await page.getByLabel('Password', { exact: true }).fill(invitee.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('region', { name: 'Check your inbox' }).waitFor();

    // The verification link signs them in; onboarding comes first, and then the invitation.
    await followVerificationMail(page, env.stack.url, invitee.email);
    await page.waitForURL(/\/onboarding\?redirectTo=/);
    await page.getByRole('button', { name: 'Start learning' }).click();
    await page.waitForURL(`${env.stack.url}/dashboard?invitation=${invitationId}`);

    const invitations = page.getByRole('region', { name: 'Invitations' });
    await invitations.getByText('You are invited to join Chess Club as Member.').waitFor();
    expect(await invitations.getByRole('listitem').first().textContent()).toContain('Go Club');
    await expect.poll(() => focused(page)).toMatchObject({ text: 'Accept' });
    expect((await focused(page)).item).toContain('Go Club');
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.keyboard.press('Enter');
    await page.getByText('Invitation accepted').waitFor();
    await invitations.getByText('You are invited to join Go Club as Member.').waitFor({ state: 'detached' });
    await invitations.getByText('You are invited to join Chess Club as Member.').waitFor();
    await page.goto(`${env.stack.url}/account/organizations`);
    await page.getByText('Go Club').first().waitFor();
  });
});

describe('the end of onboarding', () => {
  it('goes to the page the learner was headed for, and never to another site', async () => {
    const page = await openPage('onboarding-destination');
    await signUp(page, env.stack.url, newUser('headed'));
    await page.goto(`${env.stack.url}/settings`);
    await page.waitForURL(`${env.stack.url}/onboarding?redirectTo=%2Fsettings`);
    await page.goto(`${env.stack.url}/onboarding?redirectTo=${encodeURIComponent('https://evil.example/phish')}`);
    await page.getByRole('button', { name: 'Start learning' }).click();
    await page.waitForURL(`${env.stack.url}/dashboard`);

    const other = await openPage('onboarding-destination-kept');
    await signUp(other, env.stack.url, newUser('kept'));
    await other.goto(`${env.stack.url}/settings`);
    await other.getByRole('button', { name: 'Start learning' }).click();
    await other.waitForURL(`${env.stack.url}/settings`);
  });
});

describe('a new organization', () => {
  it('gets a slug that follows its name until the owner writes one', async () => {
    const page = await openPage('org-slug');
    await signUpAndOnboard(page, env.stack.url, newUser('founder'));
    await page.goto(`${env.stack.url}/account/organizations`);
    await page.getByRole('button', { name: 'Create organization' }).first().click();
    const dialog = page.getByRole('dialog');
    const name = dialog.getByLabel('Name');
    const slug = dialog.getByLabel('Slug');
    const stamp = Date.now().toString(36);

    await name.fill(`Clube Ávila São João ${stamp}`);
    expect(await slug.inputValue()).toBe(`clube-avila-sao-joao-${stamp}`);
    // Written by the owner, the slug stays; emptied, it follows the name again.
    await slug.fill(`mine-${stamp}`);
    await name.fill(`Clube Ávila ${stamp}`);
    expect(await slug.inputValue()).toBe(`mine-${stamp}`);
    await slug.fill('');
    await name.fill(`Über Study ${stamp}`);
    expect(await slug.inputValue()).toBe(`uber-study-${stamp}`);

    await dialog.getByRole('button', { name: 'Create organization' }).click();
    await page.waitForURL(`${env.stack.url}/organization/uber-study-${stamp}`);
  });
});

describe('a learner banned while their tab is open', () => {
  it('goes to /suspended at their next action, which shows the reason and how to reach support', async () => {
    const learnerPage = await openPage('banned-tab');
    const learner = newUser('rulebreaker');
    await signUpAndOnboard(learnerPage, env.stack.url, learner);
    await learnerPage.getByText('No cards yet').waitFor();

    const admin = await openPage('banning-admin');
    const adminUser = newUser('moderator');
    await signUpAndOnboard(admin, env.stack.url, adminUser);
    await makeAdmin(env.stack, await userIdOf(env.stack, adminUser.email));
    await admin.goto(`${env.stack.url}/admin`);
    await admin.getByLabel('Search by email').fill(learner.email);
    const row = admin.getByRole('listitem', { name: learner.email });
    await row.getByRole('button', { name: 'Ban' }).click();
    await row.getByLabel('Reason').fill('Copied answers into a shared deck');
    await row.getByRole('button', { name: 'Ban user' }).click();
    await row.getByText('Banned: Copied answers into a shared deck').waitFor();

    // The tab still shows the dashboard; the next thing the learner does is refused, and the tab moves on.
    const newCard = learnerPage.getByRole('region', { name: 'New card' });
    await newCard.getByRole('textbox', { name: 'Front' }).fill('A card after the ban');
    await newCard.getByRole('textbox', { name: 'Back' }).fill('Refused');
    await newCard.getByRole('button', { name: 'Add card' }).click();
    await learnerPage.waitForURL(`${env.stack.url}/suspended`);
    await learnerPage.getByRole('heading', { name: 'Your account is suspended' }).waitFor();
    await learnerPage.getByText('Reason given: Copied answers into a shared deck').waitFor();
    const support = learnerPage.getByRole('link', { name: SUPPORT_EMAIL });
    expect(await support.getAttribute('href')).toBe(`mailto:${SUPPORT_EMAIL}`);
    // The refusal is not shown as an error: the page says what happened.
    expect(await learnerPage.locator('[data-sonner-toast][data-type="error"]').count()).toBe(0);
    expect(await accessibilityViolations(learnerPage)).toEqual([]);

    await learnerPage.getByLabel('Language').selectOption('pt-BR');
    await learnerPage.getByText('Motivo informado: Copied answers into a shared deck').waitFor();
  });
});
