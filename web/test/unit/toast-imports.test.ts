// sonner and its stack load with the first toast (src/lib/toast.ts): a toast raised straight from sonner
// before then would be lost, so nothing but the stack itself may import sonner's runtime.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = new URL('../../src/', import.meta.url).pathname;
/** The stack, and the module whose import of sonner is dynamic (or for its types only). */
const ALLOWED = new Set(['lib/toaster.tsx', 'lib/toast.ts']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('toasts', () => {
  it('are raised through src/lib/toast.ts, never by importing sonner', () => {
    const offenders = sourceFiles(SRC)
      .filter((path) => !ALLOWED.has(relative(SRC, path)))
      .filter((path) => /from ['"]sonner['"]|import\(['"]sonner['"]\)/.test(readFileSync(path, 'utf8')))
      .map((path) => relative(SRC, path));
    expect(offenders).toEqual([]);
  });
});
