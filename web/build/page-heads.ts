// A Vite plugin that writes dist/page-heads.json: each public page's path, title and description in
// English (the messages named in src/lib/page-heads.ts), for the gateway to fill into the HTML it serves.
import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';
import { PUBLIC_PAGES } from '../src/lib/page-heads';

export function pageHeads(messagesFile: URL): Plugin {
  return {
    name: 'engram-page-heads',
    apply: 'build',
    generateBundle() {
      const messages = JSON.parse(readFileSync(messagesFile, 'utf8')) as Record<string, string>;
      const text = (key: string) => {
        const value = messages[key];
        if (!value) throw new Error(`page-heads: no message "${key}" in ${messagesFile.pathname}`);
        return value;
      };
      const heads = PUBLIC_PAGES.map((page) => ({
        path: page.path,
        title: text(page.title),
        description: text(page.description),
      }));
      this.emitFile({ type: 'asset', fileName: 'page-heads.json', source: `${JSON.stringify(heads, null, 2)}\n` });
    },
  };
}
