// Highlighting of fenced code in card Markdown, loaded with the first text that has a fenced block
// (markdown.ts featuresLoaded).
import 'highlight.js/styles/github.css';
import hljs from 'highlight.js/lib/common';
import { installHighlighter } from './markdown';

export function install() {
  installHighlighter((code, language) =>
    hljs.getLanguage(language) ? hljs.highlight(code, { language, ignoreIllegals: true }).value : '',
  );
}
