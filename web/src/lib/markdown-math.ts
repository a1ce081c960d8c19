// KaTeX for card Markdown, loaded with the first text that has maths (markdown.ts featuresLoaded installs it). The
// build dedupes `katex` (vite.config.ts), so the plugin typesets with the KaTeX whose stylesheet is imported here.
import 'katex/dist/katex.min.css';
import markdownItKatex from '@vscode/markdown-it-katex';

// The package is CommonJS; bundlers hand its default export over in either shape.
export const katexPlugin = ((markdownItKatex as unknown as { default?: typeof markdownItKatex }).default ??
  markdownItKatex) as typeof markdownItKatex;
