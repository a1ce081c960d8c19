// The auth screens (better-auth-ui against identity), in a real Chromium through the real gateway, with
// mail read from the dev mailbox: sign-up with its verification link, sign-in by email and by username,
// a magic link, an emailed code, a password reset, and what each does after a failure.

import { TWO_FACTOR_OTP_RESEND_SECONDS } from '@engram/contracts/auth-features';
import { followVerificationMail, openTestPage, useBrowserStack } from '@engram/testkit/browser';
import { codeIn, linkIn, nextMail, readMailbox } from '@engram/testkit/mailbox';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { fillSignIn, fillSignUp, newUser, signUp, signUpAndOnboard, type TestUser } from './support/auth.ts';
import { accessibilityViolations } from './support/axe.ts';

const env = useBrowserStack();

const openPage = (name: string) => openTestPage(env.browser, name, { bypassCSP: true, locale: 'en-US' });

/** A user who has signed up and verified their email, then signed out again. */
async function registeredUser(page: Page, label: string): Promise<TestUser> {
  const user = newUser(label);
  await signUp(page, env.stack.url, user);
  await page.goto(`${env.stack.url}/auth/sign-out`);
  await page.waitForURL(/\/auth\/sign-in$/);
  return user;
}

const passwordField = (page: Page) => page.getByLabel('Password', { exact: true });

describe('signing up', () => {
  it('mails a verification link, refuses to sign in before it is opened, and opening it signs the user in', async () => {
    const page = await openPage('sign-up');
    const user = newUser('ada');
    await page.goto(`${env.stack.url}/auth/sign-up`);
    await page.getByLabel('Username').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);

    await fillSignUp(page, env.stack.url, user);
    await page.getByText('Check your email for the verification link.').waitFor();
    await page.waitForURL(`${env.stack.url}/auth/sign-in`);

    await fillSignIn(page, user.email, user.password);
    await page.getByText('Email not verified. Please check your inbox.').waitFor();

    await followVerificationMail(page, env.stack.url, user.email);
    await page.waitForURL(`${env.stack.url}/onboarding`);
    await page.getByText(user.name).first().waitFor();
  });

  it('explains what is missing before anything is sent', async () => {
    const page = await openPage('sign-up-validation');
    await page.goto(`${env.stack.url}/auth/sign-up`);
    await page.getByLabel('Email').fill('not an address');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('Email is invalid').waitFor();
    await page.getByText('Name is required', { exact: true }).waitFor();
    await page.getByText('Username is required', { exact: true }).waitFor();
    await page.getByText('Password is required.').waitFor();
    expect(page.url()).toBe(`${env.stack.url}/auth/sign-up`);
  });

  it('clears the password after a failed sign-up and keeps the rest', async () => {
    const page = await openPage('sign-up-failed');
    const first = await registeredUser(page, 'taken');
    const second = { ...newUser('second'), username: first.username };
    await fillSignUp(page, env.stack.url, second);
    await page.getByText('Username is already taken. Please try another.').waitFor();
    expect(await passwordField(page).inputValue()).toBe('');
    expect(await page.getByLabel('Email').inputValue()).toBe(second.email);
  });
});

describe('signing in', () => {
  it('works with the email or the username, and goes where the visitor was headed', async () => {
    const page = await openPage('sign-in');
    const user = await registeredUser(page, 'grace');

    await page.goto(`${env.stack.url}/onboarding?from=mail`);
    await page.waitForURL(/\/auth\/sign-in\?redirectTo=/);
    expect(new URL(page.url()).searchParams.get('redirectTo')).toBe('/onboarding?from=mail');
    expect(await accessibilityViolations(page)).toEqual([]);
    // Its one field takes either, and its label says so.
    await page.getByLabel('Username or email', { exact: true }).waitFor();
    await fillSignIn(page, user.email, user.password);
    await page.waitForURL(`${env.stack.url}/onboarding?from=mail`);

    await page.goto(`${env.stack.url}/auth/sign-out`);
    await page.waitForURL(`${env.stack.url}/auth/sign-in`);
    await fillSignIn(page, user.username, user.password);
    await page.waitForURL(`${env.stack.url}/onboarding`);
  });

  it('shows why a sign-in failed and clears the password', async () => {
    const page = await openPage('sign-in-failed');
    const user = await registeredUser(page, 'linus');
    await fillSignIn(page, user.email, 'not the password');
    await page.getByText('Invalid email or password').waitFor();
    expect(await passwordField(page).inputValue()).toBe('');
    expect(await page.getByLabel('Username').inputValue()).toBe(user.email);

    await fillSignIn(page, user.username, 'not the password');
    await page.getByText('Invalid username or password').waitFor();
    expect(await passwordField(page).inputValue()).toBe('');
    expect(page.url()).toBe(`${env.stack.url}/auth/sign-in`);
  });
});

describe('a magic link', () => {
  it('is asked for from the sign-in screen and signs the user in from the mail', async () => {
    const page = await openPage('magic-link');
    const user = await registeredUser(page, 'ken');
    await page.goto(`${env.stack.url}/auth/sign-in?redirectTo=%2Fonboarding`);
    await page.getByRole('button', { name: 'Sign in with Magic link' }).click();
    // The query string comes along to the other view.
    await page.waitForURL(`${env.stack.url}/auth/magic-link?redirectTo=%2Fonboarding`);
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByLabel('Email').fill(user.email);
    await page.getByRole('button', { name: 'Send magic link' }).click();
    await page.getByText('Check your email for the magic link.').waitFor();
    const mail = await nextMail(env.stack.url, user.email, /sign-in link/);
    await page.goto(linkIn(mail));
    await page.waitForURL(`${env.stack.url}/onboarding`);
    await page.getByText(user.name).first().waitFor();
  });
});

describe('an emailed code', () => {
  it('signs the user in as soon as its six digits are typed, and a wrong one is refused and cleared', async () => {
    const page = await openPage('email-otp');
    const user = await registeredUser(page, 'barbara');
    await page.getByRole('button', { name: 'Sign in with Email code' }).click();
    await page.waitForURL(`${env.stack.url}/auth/email-otp`);
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByLabel('Email').fill(user.email);
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByText('Please check your email for the verification code.').waitFor();
    const code = codeIn(await nextMail(env.stack.url, user.email, /code/));

    const wrong = code === '000000' ? '111111' : '000000';
    const codeField = page.getByLabel('Email code');
    await codeField.pressSequentially(wrong);
    await page.getByText('Invalid code').waitFor();
    await expect.poll(() => codeField.inputValue()).toBe('');

    // No button press: the sixth digit sends the code.
    await codeField.pressSequentially(code);
    await page.waitForURL(`${env.stack.url}/onboarding`);
  });
});

describe('a forgotten password', () => {
  it('is reset from the mailed link, after which only the new password signs in', async () => {
    const page = await openPage('password-reset');
    const user = await registeredUser(page, 'margaret');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.waitForURL(`${env.stack.url}/auth/forgot-password`);
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByLabel('Email').fill(user.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText('Check your email for the password reset link.').waitFor();
    await page.waitForURL(`${env.stack.url}/auth/sign-in`);

    const mail = await nextMail(env.stack.url, user.email, /Reset your/);
    await page.goto(linkIn(mail));
    await page.waitForURL(/\/auth\/reset-password\?token=/);
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByLabel('New password').fill('a brand new secret');
    await page.getByRole('button', { name: 'Save new password' }).click();
    await page.getByText('Your password has been reset.').waitFor();
    await page.waitForURL(/\/auth\/sign-in/);

    await fillSignIn(page, user.email, user.password);
    await page.getByText('Invalid email or password').waitFor();
    await fillSignIn(page, user.email, 'a brand new secret');
    await page.waitForURL(`${env.stack.url}/onboarding`);
  });

  it('is not reset with an invalid token, and the reset view without one sends the visitor to sign-in', async () => {
    const page = await openPage('password-reset-invalid');
    await page.goto(`${env.stack.url}/auth/reset-password?token=not-a-real-token`);
    await page.getByLabel('New password').fill('a brand new secret');
    await page.getByRole('button', { name: 'Save new password' }).click();
    await page.getByText('Invalid token').waitFor();
    await expect.poll(() => page.getByLabel('New password').inputValue()).toBe('');

    await page.goto(`${env.stack.url}/auth/reset-password`);
    await page.waitForURL(`${env.stack.url}/auth/sign-in`);
    await page.getByText('Invalid token').waitFor();
  });
});

describe('two-factor sign-in', () => {
  /** Asks for a code by mail on the two-factor view, checks the resend countdown, and types the code. */
  async function enterMailedCode(page: Page, user: TestUser, codesBefore: number): Promise<void> {
    await page.getByRole('button', { name: 'Send verification code' }).click();
    // The next code can be asked for after TWO_FACTOR_OTP_RESEND_SECONDS (60), counted down on the button.
    const seconds = [0, 1, 2].map((elapsed) => TWO_FACTOR_OTP_RESEND_SECONDS - elapsed).join('|');
    const resend = page.getByRole('button', { name: new RegExp(`^Resend code \\((${seconds})\\)$`) });
    await resend.waitFor();
    expect(await resend.isDisabled()).toBe(true);
    const mail = await nextMail(env.stack.url, user.email, /verification code/, codesBefore);
    await page.getByLabel('One-time password').pressSequentially(codeIn(mail));
  }

  const mailCount = async (user: TestUser) => (await readMailbox(env.stack.url, user.email)).length;

  it('is switched on with a mailed code, then asks for one at sign-in, or for a backup code instead', async () => {
    const page = await openPage('two-factor');
    const user = newUser('alan');
    await signUpAndOnboard(page, env.stack.url, user);
    await page.goto(`${env.stack.url}/account/security`);
    await page.getByRole('button', { name: 'Enable two-factor' }).click();
    await page.getByRole('dialog').getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('dialog').getByRole('button', { name: 'Enable two-factor' }).click();
    const codesDialog = page.getByRole('dialog', { name: 'Backup codes' });
    await codesDialog.getByText('Keep these backup codes somewhere safe.', { exact: false }).waitFor();
    const backupCodes = (await codesDialog.innerText()).match(/\b[A-Za-z0-9]{5}-[A-Za-z0-9]{5}\b/g) ?? [];
    expect(backupCodes.length).toBeGreaterThan(1);
    await codesDialog.getByRole('button', { name: 'Continue' }).click();

    // The first code switches two-factor on.
    await page.waitForURL(/\/auth\/two-factor/);
    expect(await accessibilityViolations(page)).toEqual([]);
    await enterMailedCode(page, user, await mailCount(user));
    await page.getByText('Two-factor authentication has been enabled.').waitFor();
    await page.waitForURL(`${env.stack.url}/dashboard`);
    // Now on, its view is one more that a signed-in user is sent away from.
    await page.goto(`${env.stack.url}/auth/two-factor`);
    await page.waitForURL(`${env.stack.url}/dashboard`);

    // Signing in now takes the password and a mailed code.
    await page.goto(`${env.stack.url}/auth/sign-out`);
    await page.waitForURL(`${env.stack.url}/auth/sign-in`);
    await fillSignIn(page, user.email, user.password);
    await page.waitForURL(`${env.stack.url}/auth/two-factor`);
    await enterMailedCode(page, user, await mailCount(user));
    await page.waitForURL(`${env.stack.url}/dashboard`);

    // Without the second factor, a backup code recovers the account.
    await page.goto(`${env.stack.url}/auth/sign-out`);
    await page.waitForURL(`${env.stack.url}/auth/sign-in`);
    await fillSignIn(page, user.email, user.password);
    await page.waitForURL(`${env.stack.url}/auth/two-factor`);
    await page.getByRole('button', { name: 'Continue with authenticator' }).click();
    await page.getByRole('link', { name: 'Forgot authenticator?' }).click();
    await page.waitForURL(`${env.stack.url}/auth/recover-account`);
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByLabel('Backup code').fill(backupCodes[0] ?? '');
    await page.getByRole('button', { name: 'Recover account' }).click();
    await page.waitForURL(`${env.stack.url}/dashboard`);
  });
});
