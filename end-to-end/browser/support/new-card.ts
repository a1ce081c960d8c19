// The "New card" form on the dashboard, as a learner fills it.
import type { Locator } from 'playwright-core';
import { expect } from 'vitest';

const TAPS = 3;

/**
 * Picks the card type (Basic, Reversed or Cloze) and waits until the form shows it picked. On a machine
 * far past saturation, one tap on the type right after onboarding was seen to leave the form on Basic
 * (loaded run 15 of issue 42): the form holds what the learner picked only once it says so, so a tap the
 * page did not take is tapped again, as a learner would, up to three times.
 */
export async function chooseCardType(form: Locator, type: string): Promise<void> {
  const choice = form.getByRole('radio', { name: type, exact: true });
  for (let tap = 1; ; tap++) {
    await form.getByText(type, { exact: true }).click();
    try {
      await expect.poll(() => choice.isChecked(), { timeout: 5_000 }).toBe(true);
      return;
    } catch (error) {
      if (tap === TAPS) throw error;
    }
  }
}
