// What a first practice fetches (issue 43: cards with code, maths or sound stayed blank for seconds on a cold load
// while about 60 scripts arrived). A learner's first visit goes to /practice/new and starts a session whose cards
// hold maths, code and a sound: the number of the app's scripts the browser fetches until the first card shows and
// the network is quiet stays within FIRST_PRACTICE_SCRIPTS, and the text of the first card shows without waiting for
// them. (The scripts were 42 at d00cf75 and 41 before the entry's own modules were made one chunk with it.) Under
// load fewer may have arrived when the network goes quiet, never more: the count is an upper bound.
import { randomBytes } from 'node:crypto';
import { networkSettled, openTestPage, useBrowserStack } from '@engram/testkit/browser';
import { recordedFile } from '@engram/testkit/media-files';
import { signUpThroughGateway } from '@engram/testkit/stack';
import { describe, expect, it } from 'vitest';
import { trpcClient } from '../support/trpc-client.ts';
import { useSessionCookie } from './support/auth.ts';
import { addCardFile } from './support/card-files.ts';
import { recordScripts, totalKb } from './support/javascript-budget.ts';

const env = useBrowserStack();

/** The app's scripts a first practice may fetch. */
const FIRST_PRACTICE_SCRIPTS = 34;

describe('a first practice', () => {
  it(`fetches at most ${FIRST_PRACTICE_SCRIPTS} scripts, and shows its first card's text without waiting for them`, async () => {
    const { url } = env.stack;
    const cookie = await signUpThroughGateway(
      url,
      'Mia Primeira',
      `first-${randomBytes(4).toString('hex')}@example.com`,
    );
    const api = trpcClient(url, cookie);
    await api.mutate('settings.completeOnboarding', { timezone: 'UTC' });
    await api.mutate('cards.create', { front: 'Energy at rest: $E = mc^2$', back: 'Einstein', tagIds: [] });
    await api.mutate('cards.create', {
      front: 'What prints?\n\n```js\nconsole.log(1 + 1);\n```',
      back: '`2`',
      tagIds: [],
    });
    await api.mutate('cards.create', { front: 'Capital of Peru', back: 'Lima', tagIds: [] });
    const sound = await addCardFile(url, cookie, 'tone.mp3', 'audio/mpeg', recordedFile('tone.mp3'));
    await api.mutate('cards.create', { front: `What is this note?\n\n![tone](${sound})`, back: 'A', tagIds: [] });
    const page = await openTestPage(env.browser, 'first-practice', {});
    await useSessionCookie(page, url, cookie);
    const scripts = recordScripts(page, url);
    await page.goto(`${url}/practice/new`);
    await page.getByRole('link', { name: 'Start' }).click();
    await page.getByRole('button', { name: /^Show answer/ }).waitFor();
    await expect.poll(() => page.locator('article').first().innerText()).toMatch(/\S/);
    await networkSettled(page);
    console.log(
      `A first practice fetched ${scripts.size} scripts, ${totalKb(scripts)} KB gzipped:`,
      [...scripts].map(([path, kb]) => `${path.replace(/^\/assets\//, '')} ${kb.toFixed(1)}`).join(', '),
    );
    expect(scripts.size).toBeLessThanOrEqual(FIRST_PRACTICE_SCRIPTS);
  });
});
