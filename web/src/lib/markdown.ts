// Turns a card side's Markdown into HTML: CommonMark, math with KaTeX ($…$ and $$…$$), and code blocks
// highlighted with highlight.js. Raw HTML in a card is shown as text, never run, so a card cannot carry
// a script. This module is heavy (KaTeX, highlight.js): only the practice screens and the card preview load it.
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
markdown.use(katexPlugin, { throwOnError: false, enableFencedBlocks: true });

// Links in a card open in a new tab and never tell the other site where they came from.
const defaultLinkOpen =
  markdown.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
markdown.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  tokens[idx]?.attrSet('target', '_blank');
  tokens[idx]?.attrSet('rel', 'noopener noreferrer');
  return defaultLinkOpen(tokens, idx, options, env, self);
};

export function renderMarkdown(source: string): string {
  return markdown.render(source);
}
