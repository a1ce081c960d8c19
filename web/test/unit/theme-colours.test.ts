// Every shade of Engram's brand colour a screen's classes name is defined by the theme, in the light theme and
// again in the dark one. Tailwind writes no rule for a shade the theme lacks, so `ring-brand-200` would silently
// draw its ring in the text's colour and `text-brand-900` would keep the inherited one.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = new URL('../../src/', import.meta.url).pathname;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(path);
    return /\.(tsx|ts)$/.test(entry.name) ? [path] : [];
  });
}

/** Where each brand shade is named by a class: shade → "file" list. */
function shadesUsed(): Map<string, string[]> {
  const used = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    for (const [, shade] of readFileSync(file, 'utf8').matchAll(/-brand-(\d{2,3})\b/g)) {
      used.set(shade!, [...(used.get(shade!) ?? []), relative(SRC, file)]);
    }
  }
  return used;
}

const styles = readFileSync(join(SRC, 'styles.css'), 'utf8');
const definitions = (shade: string) => styles.match(new RegExp(`--color-brand-${shade}:`, 'g'))?.length ?? 0;

describe("the brand colour's shades", () => {
  it('are each defined for the light and the dark theme wherever a class names them', () => {
    const used = shadesUsed();
    expect(used.size).toBeGreaterThan(3);
    const missing = [...used]
      .filter(([shade]) => definitions(shade) < 2)
      .map(([shade, files]) => `brand-${shade} (${[...new Set(files)].join(', ')})`);
    expect(missing).toEqual([]);
  });
});
