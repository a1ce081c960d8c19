// How a card's Markdown is read, spelled once for the web app's renderer (web/src/lib/markdown.ts) and the Anki
// package's (packages/anki/src/markdown-to-html.ts), so a card exported to Anki says what the learner saw: CommonMark
// with raw HTML shown as text, bare links made links, a single line break kept, and maths between `$`, `$$` or in a
// ```math block (KaTeX's syntax, @vscode/markdown-it-katex), a formula that does not parse shown as written.

/** markdown-it's options. */
export const CARD_MARKDOWN_OPTIONS = { html: false, linkify: true, breaks: true } as const;

/** @vscode/markdown-it-katex's options. */
export const CARD_MATH_OPTIONS = { throwOnError: false, enableFencedBlocks: true } as const;
