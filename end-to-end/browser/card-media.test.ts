// Images and sounds in cards, in a real Chromium through the real gateway, with the page's own CSP: a
// learner chooses a picture for the front, pastes a screenshot into it, chooses a sound for the back; the
// files go straight to the object store and come back as rendered images and a player; in practice the
// answer's sound plays when it is revealed and R plays it again. The form shows each side's files as thumbnails, each
// with a button that takes it out of the side. Another learner cannot read the files; the
// account page lists them with the storage they take.
import { openTestPage, useBrowserStack } from '@engram/testkit/browser';
import { silentWav } from '@engram/testkit/media-files';
import type { Locator } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { newUser, signUpAndOnboard } from './support/auth.ts';

const env = useBrowserStack();
/** An upload goes to the store and is re-encoded by cards before its link appears: a busy machine takes seconds. */
const png = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();

describe('images and sounds in a card', () => {
  it('are added by choosing and pasting, shown in the list, and played in practice (R replays)', async () => {
    const page = await openTestPage(env.browser, 'card-media');
    page.setDefaultTimeout(15_000);
    await signUpAndOnboard(page, env.stack.url, newUser('media'));
    const form = page.getByRole('region', { name: 'New card' });
    const front = form.getByRole('textbox', { name: 'Front' });
    const back = form.getByRole('textbox', { name: 'Back' });

    await front.fill('Which organelle is this?');
    const choose = async (button: string, file: { name: string; mimeType: string; buffer: Buffer }) => {
      const chooser = page.waitForEvent('filechooser');
      await form.getByRole('button', { name: button }).click();
      await (await chooser).setFiles(file);
    };
    await choose('Add an image or a sound to the front', {
      name: 'organelle.png',
      mimeType: 'image/png',
      buffer: await png(640, 480, '#3a7'),
    });
    await expect.poll(() => front.inputValue()).toMatch(/\n!\[organelle\]\(\/media\/[0-9a-f-]{36}\/organelle\.png\)$/);

    // A screenshot pasted into the front.
    const screenshot = (await png(30, 30, '#c33')).toString('base64');
    await front.focus();
    await page.evaluate(`(() => {
      const bytes = Uint8Array.from(atob('${screenshot}'), (char) => char.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], 'image.png', { type: 'image/png' }));
      document.activeElement.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
      );
    })()`);
    await expect.poll(() => front.inputValue()).toMatch(/!\[image\]\(\/media\/[0-9a-f-]{36}\/image\.png\)$/);
    // Under the front, its files as thumbnails: the learner sees the pictures, not only their addresses.
    const widths = (images: Locator) =>
      images.evaluateAll((all) => all.map((image) => Reflect.get(image, 'naturalWidth')));
    const frontFiles = form.getByRole('list', { name: 'Files in the front' });
    await expect.poll(() => widths(frontFiles.getByRole('img'))).toEqual([640, 30]);
    expect(
      await frontFiles.getByRole('img').evaluateAll((all) => all.map((image) => Reflect.get(image, 'alt'))),
    ).toEqual(['organelle.png', 'image.png']);

    await back.fill('The mitochondrion');
    await choose('Add an image or a sound to the back', {
      name: 'mitochondrion.wav',
      mimeType: 'audio/wav',
      buffer: silentWav(4000),
    });
    await expect
      .poll(() => back.inputValue())
      .toMatch(/!\[Sound: mitochondrion\]\(\/media\/[0-9a-f-]{36}\/mitochondrion\.wav\)$/);
    // Under the back, the sound as a small player; its button takes it out of the text, and the text is as before.
    const backFiles = form.getByRole('list', { name: 'Files in the back' });
    await backFiles.locator('audio[aria-label="mitochondrion.wav"]').waitFor({ state: 'attached' });
    await backFiles.getByRole('button', { name: 'Remove mitochondrion.wav from the card' }).click();
    await expect.poll(() => back.inputValue()).toBe('The mitochondrion');
    await backFiles.waitFor({ state: 'detached' });
    await choose('Add an image or a sound to the back', {
      name: 'mitochondrion.wav',
      mimeType: 'audio/wav',
      buffer: silentWav(4000),
    });
    await expect
      .poll(() => back.inputValue())
      .toMatch(/!\[Sound: mitochondrion\]\(\/media\/[0-9a-f-]{36}\/mitochondrion\.wav\)$/);
    await form.getByRole('button', { name: 'Add card' }).click();

    // The list shows the pictures, loaded from this site.
    const card = page.getByRole('list', { name: 'Your cards' }).getByTestId('compact-card').first();
    const images = card.locator('img');
    await expect.poll(() => images.count()).toBe(2);
    await expect.poll(() => widths(images)).toEqual([640, 30]);
    // A large picture is a whole thumbnail in the list, in its own proportions, not a strip cut by the card's clamp.
    const shown = await images.first().boundingBox();
    const clamp = await images.first().locator('xpath=ancestor::div[contains(@class, "prose-card")][1]').boundingBox();
    expect(shown && shown.height <= 64 && Math.abs(shown.width / shown.height - 640 / 480) < 0.05).toBe(true);
    expect(shown && clamp && shown.y + shown.height <= clamp.y + clamp.height + 0.5).toBe(true);
    // The back's sound is a whole, compact player that knows its length (never "0:00 / 0:00").
    const listed = card.locator('audio.card-sound');
    await expect.poll(() => listed.evaluate((audio) => Reflect.get(audio, 'duration') as number)).toBeGreaterThan(0);
    const listedBox = await listed.boundingBox();
    const backClamp = await listed.locator('xpath=ancestor::div[contains(@class, "prose-card")][1]').boundingBox();
    expect(listedBox && backClamp && listedBox.y + listedBox.height <= backClamp.y + backClamp.height + 0.5).toBe(true);

    // Another learner reading the picture's address gets nothing.
    const source = await images.first().getAttribute('src');
    const other = await openTestPage(env.browser, 'card-media-other');
    await signUpAndOnboard(other, env.stack.url, newUser('mediaother'));
    expect((await other.request.get(`${env.stack.url}${source}`)).status()).toBe(404);
    await other.context().close();

    // Practice: the answer's sound plays as it is revealed, and again with R.
    await page.addInitScript(`window.plays = 0;
      document.addEventListener('play', () => window.plays++, true);`);
    await page.goto(`${env.stack.url}/practice/session`);
    const question = page.getByRole('region', { name: 'Question' });
    await expect.poll(() => widths(question.locator('img'))).toEqual([640, 30]);
    await page.keyboard.press('Space');
    const player = page.getByRole('region', { name: 'Answer' }).locator('audio.card-sound');
    await expect(player.getAttribute('aria-label')).resolves.toBe('Sound: mitochondrion');
    const plays = () => page.evaluate('window.plays');
    await expect.poll(plays).toBe(1);
    await page.keyboard.press('r');
    await expect.poll(plays).toBe(2);
    // The side's button plays it again too, and only that: the card stays as it was.
    await page.getByRole('region', { name: 'Answer' }).getByRole('button', { name: 'Play the sound again' }).click();
    await expect.poll(plays).toBe(3);
    await page.getByRole('button', { name: /^Good/ }).waitFor();

    // The account page lists the files with the storage they take; one a card shows is not deleted.
    await page.goto(`${env.stack.url}/account/settings`);
    await page
      .getByTestId('media-storage')
      .getByText(/^Images and sounds: .+ of 100 MB$/)
      .waitFor();
    const files = page.getByRole('list', { name: 'Your images and sounds' }).getByRole('listitem');
    // Three: the sound taken out of the back and added again is the same file, kept once.
    await expect.poll(() => files.count()).toBe(3);
    expect(await files.filter({ hasText: 'organelle.png' }).textContent()).toContain('shown by 1 card');
    expect(await files.filter({ hasText: 'mitochondrion.wav' }).textContent()).toContain('shown by 1 card');
    await files.filter({ hasText: 'organelle.png' }).getByRole('button', { name: 'Delete organelle.png' }).click();
    await page.getByRole('dialog', { name: 'Delete organelle.png?' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('A card shows this file. Remove it from them first.').waitFor();
    expect(await files.count()).toBe(3);
  });

  it('shows the answer of a question made only of sound with one tap on a phone, and plays it again with its button', async () => {
    const page = await openTestPage(env.browser, 'card-media-sound-only', {
      viewport: { width: 390, height: 844 },
      hasTouch: true,
      isMobile: true,
    });
    page.setDefaultTimeout(15_000);
    await signUpAndOnboard(page, env.stack.url, newUser('soundonly'));
    const form = page.getByRole('region', { name: 'New card' });
    const chooser = page.waitForEvent('filechooser');
    await form.getByRole('button', { name: 'Add an image or a sound to the front' }).click();
    await (await chooser).setFiles({ name: 'bonjour.wav', mimeType: 'audio/wav', buffer: silentWav(2000) });
    await form.getByRole('list', { name: 'Files in the front' }).waitFor();
    await form.getByRole('textbox', { name: 'Back' }).fill('Hello');
    await form.getByRole('button', { name: 'Add card' }).click();
    await page.getByRole('list', { name: 'Your cards' }).getByTestId('compact-card').first().waitFor();

    await page.addInitScript(`window.plays = 0;
      document.addEventListener('play', () => window.plays++, true);`);
    await page.goto(`${env.stack.url}/practice/session`);
    const question = page.getByRole('region', { name: 'Question' });
    const again = question.getByRole('button', { name: 'Play the sound again' });
    await again.tap();
    await expect.poll(() => page.evaluate('window.plays')).toBeGreaterThanOrEqual(1);
    expect(await page.getByRole('region', { name: 'Answer' }).count()).toBe(0);
    // One tap in the middle of the card, where the browser's player used to take it, shows the answer.
    const card = await page.locator('article').boundingBox();
    if (!card) throw new Error('no card shown');
    await page.touchscreen.tap(card.x + card.width / 2, card.y + card.height / 2);
    await page.getByRole('region', { name: 'Answer' }).getByText('Hello').waitFor();
  });
});
