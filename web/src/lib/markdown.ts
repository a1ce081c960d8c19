// Turns a card side's Markdown into HTML: CommonMark, math with KaTeX ($…$ and $$…$$), and code blocks
// highlighted with highlight.js. Raw HTML in a card is shown as text, never run, so a card cannot carry
// a script; an image on another site is shown as a link, so a card cannot make the learner's browser ask
// anyone else for anything (a tracking pixel in a shared deck or a generated card). This module is heavy (KaTeX, highlight.js): only the practice screens and the card preview load it.
import 'katex/dist/katex.min.css';
import 'highlight.js/styles/github.css';
import markdownItKatex from '@vscode/markdown-it-katex';
import hljs from 'highlight.js/lib/common';
import MarkdownIt from 'markdown-it';

const markdown = new MarkdownIt({
  html: false,
  linkify: true,
  breaks: true,
  highlight(code, language) {
    if (language && hljs.getLanguage(language)) {
      return hljs.highlight(code, { language, ignoreIllegals: true }).value;
    }
    return '';
  },
});
// The package is CommonJS; bundlers hand its default export over in either shape.
const katexPlugin = ((markdownItKatex as unknown as { default?: typeof markdownItKatex }).default ??
  markdownItKatex) as typeof markdownItKatex;
// The plugin typesets with the app's KaTeX, the one whose stylesheet is imported above: the build dedupes the
// package (vite.config.ts), since the plugin's own older KaTeX writes markup that stylesheet does not fit.
markdown.use(katexPlugin, { throwOnError: false, enableFencedBlocks: true });

// Links in a card open in a new tab and never tell the other site where they came from.
const defaultLinkOpen =
  markdown.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
markdown.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  tokens[idx]?.attrSet('target', '_blank');
  tokens[idx]?.attrSet('rel', 'noopener noreferrer');
  return defaultLinkOpen(tokens, idx, options, env, self);
};

// An image is shown only when it is Engram's own (a relative address, or a data URL markdown-it let through);
// any other becomes a link to it, named by its alt text. The CSP (img-src 'self' data:) would block it anyway.
const defaultImage =
  markdown.renderer.rules.image ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
markdown.renderer.rules.image = (tokens, idx, options, env, self) => {
  const token = tokens[idx];
  const src = String(token?.attrGet('src') ?? '');
  if (!token || isOwnAddress(src)) return defaultImage(tokens, idx, options, env, self);
  const alt = self.renderInlineAsText(token.children ?? [], options, env);
  const href = markdown.utils.escapeHtml(src);
  return `<a href="${href}" target="_blank" rel="noopener noreferrer">${markdown.utils.escapeHtml(alt || src)}</a>`;
};

function isOwnAddress(src: string): boolean {
  if (/^data:/i.test(src)) return true;
  const origin = globalThis.location?.origin;
  if (!origin) return !/^([a-z][a-z0-9+.-]*:|\/\/)/i.test(src.trim());
  try {
    return new URL(src, origin).origin === origin;
  } catch {
    return false;
  }
}

export function renderMarkdown(source: string): string {
  return markdown.render(source);
}
