// No module of Engram imports itself through others: a circle of imports makes the order modules are evaluated in
// depend on which one is loaded first (a value read before it is set), and ties the modules of the circle into one
// piece that cannot be understood, tested or split apart alone. Dynamic imports count too: they are still a
// dependency, only a later one.
import { globSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const skipped = (path: string) => /(^|\/)(node_modules|dist|\.cache|generated|gen)(\/|$)/.test(path);
const sources = globSync(['**/*.ts', '**/*.tsx'], { exclude: skipped }).filter((path) => !path.endsWith('.d.ts'));
const known = new Set(sources);

/** The source file a relative specifier names, if it is one of ours. */
function resolve(from: string, specifier: string): string | undefined {
  const base = join(dirname(from), specifier);
  const candidates = [base, base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'), `${base}.ts`, `${base}.tsx`];
  return candidates.find((candidate) => known.has(candidate));
}

const IMPORTS = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)'(\.{1,2}\/[^']+)'/g;

function importsOf(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  return [...text.matchAll(IMPORTS)].flatMap(([, specifier]) => resolve(path, specifier ?? '') ?? []);
}

/** The strongly connected components with more than one module (Tarjan's algorithm). */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(target) ?? 0));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('the modules of Engram', () => {
  it('import one another without a circle', () => {
    const graph = new Map(sources.map((path) => [path, importsOf(path)]));
    expect(graph.size).toBeGreaterThan(500);
    expect(circles(graph).map((circle) => circle.join(' → '))).toEqual([]);
  });

  it('would have a circle found (the check itself)', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(circles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });
});
