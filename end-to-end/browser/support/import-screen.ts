// What the import screen's browser tests share: dropping a file on a target as a person's drag does (a real
// drop event carrying a File), and reading the counts a finished import shows.
import type { Locator, Page } from 'playwright-core';

/** Drops a file of `name` holding `content` on `target`: dragenter, dragover and drop with a DataTransfer. */
export async function dropFile(
  page: Page,
  target: Locator,
  name: string,
  content: string | Buffer,
  type = typeof content === 'string' ? 'text/csv' : 'application/octet-stream',
) {
  const bytes = Buffer.from(content).toString('base64');
  // An expression, not a function: these tests compile without the DOM's types.
  const dataTransfer = await page.evaluateHandle(`(() => {
    const bytes = Uint8Array.from(atob('${bytes}'), (char) => char.charCodeAt(0));
    const data = new DataTransfer();
    data.items.add(new File([bytes], ${JSON.stringify(name)}, { type: ${JSON.stringify(type)} }));
    return data;
  })()`);
  for (const event of ['dragenter', 'dragover', 'drop']) await target.dispatchEvent(event, { dataTransfer });
}

/** Each shown count of a finished import, as "label value". */
export const countsOf = (within: Locator) =>
  within.locator('div').evaluateAll((boxes) => boxes.map((box) => Reflect.get(box, 'innerText').replace('\n', ' ')));
