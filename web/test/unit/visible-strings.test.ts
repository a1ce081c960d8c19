// Every string a person sees goes through the i18n layer: no screen may write text straight into its JSX
// (an element's text, or a label, title, placeholder or alt), in any language. Parsed with Vite's parser
// (oxc), so
// a stray word anywhere in web/src fails here with its file and line.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseSync } from 'vite';
import { describe, expect, it } from 'vitest';

const SRC = new URL('../../src/', import.meta.url).pathname;
const VISIBLE_ATTRIBUTES = new Set(['aria-label', 'title', 'placeholder', 'alt', 'label', 'aria-description']);
/** Not words of a language: the product's name. */
const ALLOWED = new Set(['Engram']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(path);
    return entry.name.endsWith('.tsx') ? [path] : [];
  });
}

const hasWords = (text: string) => /\p{L}{2,}/u.test(text) && !ALLOWED.has(text.trim());

type AstNode = { type: string; start: number; [key: string]: unknown };

const isNode = (value: unknown): value is AstNode =>
  value !== null && typeof value === 'object' && typeof (value as AstNode).type === 'string';

/** Text written straight into JSX in `source`, as "file:line: text". */
export function literalTexts(fileName: string, source: string): string[] {
  const { program } = parseSync(fileName, source, { lang: 'tsx' });
  const found: string[] = [];
  const report = (node: AstNode, text: string) => {
    const line = source.slice(0, node.start).split('\n').length;
    found.push(`${relative(SRC, fileName)}:${line}: ${text.trim()}`);
  };
  const attributeText = (value: unknown): string | undefined => {
    if (!isNode(value)) return undefined;
    if (value.type === 'Literal' && typeof value.value === 'string') return value.value;
    if (value.type === 'JSXExpressionContainer') return attributeText(value.expression);
    if (value.type === 'TemplateLiteral' && (value.expressions as unknown[]).length === 0)
      return (value.quasis as { value: { cooked: string } }[])[0]?.value.cooked;
    return undefined;
  };
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (!isNode(value)) return;
    if (value.type === 'JSXText' && typeof value.value === 'string' && hasWords(value.value))
      report(value, value.value);
    if (value.type === 'JSXAttribute' && isNode(value.name) && VISIBLE_ATTRIBUTES.has(String(value.name.name))) {
      const text = attributeText(value.value);
      if (text !== undefined && hasWords(text)) report(value, text);
    }
    if (value.type === 'JSXElement' || value.type === 'JSXFragment') {
      for (const child of value.children as AstNode[]) {
        const text = child.type === 'JSXExpressionContainer' ? attributeText(child.expression) : undefined;
        if (text !== undefined && hasWords(text)) report(child, text);
      }
    }
    for (const [key, child] of Object.entries(value)) if (key !== 'parent') visit(child);
  };
  visit(program);
  return found;
}

describe('visible strings', () => {
  it('are all messages of the i18n layer, none written into a screen', () => {
    const found = sourceFiles(SRC).flatMap((path) => literalTexts(path, readFileSync(path, 'utf8')));
    expect(found).toEqual([]);
  });

  it('are caught when written as element text or as a label', () => {
    const screen = `export const A = () => <p title="Save it" aria-label={'Close'}>Hello there <b>{name}</b></p>;
export const B = () => <>{'Loading'} {m.ok()}</>;`;
    expect(literalTexts(join(SRC, 'a.tsx'), screen).sort()).toEqual([
      'a.tsx:1: Close',
      'a.tsx:1: Hello there',
      'a.tsx:1: Save it',
      'a.tsx:2: Loading',
    ]);
  });
});
