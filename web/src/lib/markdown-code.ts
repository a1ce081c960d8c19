// Highlighting of fenced code in card Markdown, loaded with the first text that has a fenced block
// (markdown.ts featuresLoaded installs it). Its colours are the app's own (.prose-card in styles.css), for both
// themes.
import hljs from 'highlight.js/lib/common';

export const highlightCode = (code: string, language: string): string =>
  hljs.getLanguage(language) ? hljs.highlight(code, { language, ignoreIllegals: true }).value : '';
