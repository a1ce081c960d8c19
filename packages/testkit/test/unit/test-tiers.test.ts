// npm test runs tests in tiers named for what they start, and a file's folder says its tier (vitest.config.ts).
// Unit and service files share their worker's process; so a file in the wrong folder would either start a
// stack beside another file's (a browser test once saw the identity service answer 503 while another file's
// stack wound down) or quietly lean on a database the unit tier promises not to need.
import { globSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MEASURES_OWN_MEMORY, TIERS } from '../../../../vitest.config.ts';
import { formatDuration, tierOfProject } from '../../src/tier-times.ts';

const skipped = (path: string) => /(^|\/)(node_modules|dist|\.cache)(\/|$)/.test(path);
const allTestFiles = globSync('**/*.test.ts', { exclude: skipped }).sort();
const filesOf = (globs: readonly string[]) => globSync(globs as string[], { exclude: skipped }).sort();

/** A file's text with that of the test support files it imports, transitively. */
function withLocalImports(path: string, seen = new Set<string>()): string {
  if (seen.has(path)) return '';
  seen.add(path);
  const text = readFileSync(path, 'utf8');
  const local = [...text.matchAll(/from '(\.{1,2}\/[^']+)\.[jt]s'/g)].map(([, spec]) =>
    join(dirname(path), `${spec}.ts`),
  );
  const support = local.filter((file) => /(^|\/)(test|end-to-end)\//.test(file));
  return [text, ...support.map((file) => withLocalImports(file, seen))].join('\n');
}

// Spelled in parts, so that this file's own text holds none of them.
const part = (...pieces: string[]) => pieces.join('');
const STARTS_A_STACK = new RegExp(
  `\\b(?:${part('useBrowser', 'Stack')}|${part('startTest', 'Stack')}|${part('sharedTest', 'Stack')}|${part('run', 'Proof')})\\(`,
);
const USES_INFRASTRUCTURE = new RegExp(
  [
    part('test', 'Context\\('),
    part('startService', 'UnderTest'),
    part('@engram/testkit/', '(?:service|context|databases|streams|grpc-fixture|redis-server)'),
    part("from 'p", "g'"),
    part('@engram/kit/', '(?:db|migrate|events/runtime)'),
  ].join('|'),
);
const MEASURES_MEMORY = new RegExp(part('process\\.memory', 'Usage\\b'));

describe('the test tiers', () => {
  it('hold every test file, each in exactly one tier', () => {
    const tiered = Object.values(TIERS).flatMap((globs) => filesOf(globs));
    expect(tiered.sort()).toEqual(allTestFiles);
    expect(new Set(tiered).size).toBe(tiered.length);
  });

  it('start or share a whole stack only in the end-to-end and delivery tiers', () => {
    const sharing = [...filesOf(TIERS.unit), ...filesOf(TIERS.service)];
    expect(sharing.filter((path) => STARTS_A_STACK.test(withLocalImports(path)))).toEqual([]);
    expect(filesOf(TIERS['end-to-end']).filter((path) => STARTS_A_STACK.test(withLocalImports(path)))).toHaveLength(
      filesOf(TIERS['end-to-end']).length,
    );
  });

  it('reach PostgreSQL, NATS or Redis from the service tier up, never from a unit file', () => {
    expect(filesOf(TIERS.unit).filter((path) => USES_INFRASTRUCTURE.test(withLocalImports(path)))).toEqual([]);
    const service = filesOf(TIERS.service);
    expect(service.filter((path) => !USES_INFRASTRUCTURE.test(withLocalImports(path)))).toEqual([]);
  });

  it("give a unit file that measures its own process's memory a process of its own", () => {
    const measuring = filesOf(TIERS.unit).filter((path) => MEASURES_MEMORY.test(readFileSync(path, 'utf8')));
    expect(measuring).toEqual([...MEASURES_OWN_MEMORY].sort());
  });

  it('are printed by the tier of each project, its time in minutes and seconds', () => {
    expect(tierOfProject('unit:own-process')).toBe('unit');
    expect(tierOfProject('end-to-end')).toBe('end-to-end');
    expect(formatDuration(42_400)).toBe('42s');
    expect(formatDuration(754_000)).toBe('12m 34s');
  });
});
