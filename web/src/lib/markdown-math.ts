// KaTeX for card Markdown, loaded with the first text that has maths (markdown.ts featuresLoaded). The build
// dedupes `katex` (vite.config.ts), so the plugin typesets with the KaTeX whose stylesheet is imported here.
import 'katex/dist/katex.min.css';
import markdownItKatex from '@vscode/markdown-it-katex';
import { installMath } from './markdown';

// The package is CommonJS; bundlers hand its default export over in either shape.
const katexPlugin = ((markdownItKatex as unknown as { default?: typeof markdownItKatex }).default ??
  markdownItKatex) as typeof markdownItKatex;

export function install() {
  installMath(katexPlugin);
}
