// npm test runs a file that starts a whole stack, or that measures its own process's memory, in a process of
// its own; every other file shares its worker's process. The split is read from the files' text, so a mistake
// in the pattern silently puts stacks side by side in one process (it did once: a browser test then saw the
// identity service answer 503 while another file's stack was winding down).
import { globSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { STARTS_A_STACK, stackFiles } from '../../../vitest.config.ts';

describe('which test files get a process of their own', () => {
  it('every browser test, whatever it passes to useBrowserStack', () => {
    const browserFiles = globSync('gateway/test/browser/*.test.ts');
    expect(browserFiles.length).toBeGreaterThan(10);
    expect(browserFiles.filter((path) => !stackFiles.includes(path))).toEqual([]);
  });

  it('the stack tests of the API, the deployment tests and the proof', () => {
    for (const path of ['gateway/test/edge.test.ts', 'deploy/test/lifecycle.test.ts', 'bench/test/proof.test.ts'])
      expect(stackFiles).toContain(path);
  });

  it("the files that measure their own process's memory", () => {
    for (const path of ['packages/kit/test/storage-streaming.test.ts', 'packages/anki/test/write-package.test.ts'])
      expect(stackFiles).toContain(path);
  });

  it('not a file that only mentions a similar name', () => {
    // Put together here, so that this file's own text does not hold a call.
    const code = (name: string, rest: string) => `${name}${rest}`;
    expect(STARTS_A_STACK.test(code('useBrowserStack', '()'))).toBe(true);
    expect(STARTS_A_STACK.test(code('startTestStack', '({ extraEnv })'))).toBe(true);
    expect(STARTS_A_STACK.test(code('const before = process.memory', 'Usage().rss'))).toBe(true);
    expect(STARTS_A_STACK.test(code('import { useBrowserStackish', ' } from "x"'))).toBe(false);
    expect(STARTS_A_STACK.test(code('process.memoryUsageOf', '(child)'))).toBe(false);
    expect(stackFiles).not.toContain('packages/testkit/test/test-projects.test.ts');
  });
});
