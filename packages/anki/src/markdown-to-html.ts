// Engram card Markdown to Anki field HTML, rendered the way the web app renders it (markdown-it, CommonMark,
// raw HTML shown as text, a single line break kept as a break): the Anki card looks like the Engram one.
// A file of the card (`/media/<id>/<name>`, docs/architecture.md#media-storage) becomes `<img src="name">`, or
// `[sound:name]` when it is a sound (an image whose file is a sound, as Engram writes one, or a link to it);
// the name is what the export's media resolver gives, so it matches the package's media. An image on another
// site stays a link, as in Engram. Cloze deletions (`{{c1::…}}`) are plain text to Markdown and pass through
// whole, with Markdown inside them rendered. Maths, `$…$` and `$$…$$` as the web app's KaTeX reads them, becomes
// Anki's MathJax, `\(…\)` and `\[…\]` (what the import turns back). A text of one paragraph loses its `<p>`, as
// Anki's editor writes fields.

import { CARD_MARKDOWN_OPTIONS, CARD_MATH_OPTIONS } from '@engram/contracts/card-markdown';
import { isSoundName, MEDIA_ADDRESS_START, parseMediaPath } from '@engram/contracts/media-files';
import markdownItKatex from '@vscode/markdown-it-katex';
import MarkdownIt from 'markdown-it';

/** The Anki name of Engram file `id`, shown by its path as `name` (decoded). */
export type MediaResolver = (id: string, name: string) => string;

type RenderEnv = { media: MediaResolver };

/** A card file's path, as mediaPath (contracts/media.ts) writes it. */
/** The extensions the web app plays as a sound. */
/** A Markdown link to a card file that is a sound: drawn like the image form. */
const SOUND_LINK = new RegExp(String.raw`(?<!!)\[([^\]\n]*)\]\((${MEDIA_ADDRESS_START}[^)\s]+)\)`, 'gi');

const markdown = new MarkdownIt(CARD_MARKDOWN_OPTIONS);
// The package is CommonJS; its default export arrives in either shape.
const katexPlugin = ((markdownItKatex as unknown as { default?: unknown }).default ?? markdownItKatex) as (
  md: typeof markdown,
  options: { throwOnError: boolean; enableFencedBlocks: boolean },
) => unknown;
markdown.use(katexPlugin, CARD_MATH_OPTIONS);
const tex = (tokens: { content: string }[], idx: number) => markdown.utils.escapeHtml(tokens[idx]!.content.trim());
markdown.renderer.rules.math_inline = (tokens, idx) => `\\(${tex(tokens, idx)}\\)`;
markdown.renderer.rules.math_inline_block = (tokens, idx) => `\\[${tex(tokens, idx)}\\]`;
markdown.renderer.rules.math_inline_bare_block = markdown.renderer.rules.math_inline_block;
markdown.renderer.rules.math_block = (tokens, idx) => `<div>\\[${tex(tokens, idx)}\\]</div>\n`;
// A ```math block (CARD_MATH_OPTIONS' fenced blocks) is display maths too; any other fence stays code.
const codeFence = markdown.renderer.rules.fence;
markdown.renderer.rules.fence = (tokens, idx, options, env, self) =>
  tokens[idx]!.info.trim() === 'math'
    ? `<div>\\[${tex(tokens, idx)}\\]</div>\n`
    : (codeFence?.(tokens, idx, options, env, self) ?? self.renderToken(tokens, idx, options));

const decode = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

const defaultImage =
  markdown.renderer.rules.image ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
markdown.renderer.rules.image = (tokens, idx, options, env, self) => {
  const token = tokens[idx]!;
  const src = String(token.attrGet('src') ?? '');
  const alt = self.renderInlineAsText(token.children ?? [], options, env);
  const html = markdown.utils.escapeHtml;
  const file = parseMediaPath(src);
  if (file) {
    const name = (env as RenderEnv).media(file.id, decode(file.name));
    // Anki reads a sound tag's name verbatim and an image's src as HTML: only the latter is escaped.
    if (isSoundName(name)) return `[sound:${name}]`;
    return `<img src="${html(name)}"${alt ? ` alt="${html(alt)}"` : ''}>`;
  }
  if (/^data:image\//i.test(src)) return defaultImage(tokens, idx, options, env, self);
  return `<a href="${html(src)}">${html(alt || src)}</a>`;
};

/**
 * Text that Markdown shows exactly as written: letters, digits, spaces and marks that start no Markdown (no
 * emphasis, code, link, picture, maths, HTML or escape), make no link (linkify reads a link in "a.b", "x@y" and
 * "a:b"), need no escaping in HTML (& < > "), and, at its start, open no block (a list's "-", "+" or "1)"), on
 * one line with no space around it. Most of a collection's fields are such text; markdown-it is skipped for them.
 */
const PLAIN = /^(?![-+]|\d{1,9}\))[\p{L}\p{N},;?!'()%+\-/= ]*$/u;

/** The Anki field HTML of one card side. */
export function markdownToHtml(text: string, media: MediaResolver): string {
  if (PLAIN.test(text) && text === text.trim() && !text.includes('  ')) return text;
  return renderedHtml(text, media);
}

/** The Anki field HTML of one card side through markdown-it, whatever it holds (markdownToHtml's slow path). */
export function renderedHtml(text: string, media: MediaResolver): string {
  const source = text.replace(SOUND_LINK, (link, label: string, path: string) =>
    isSoundName(path) ? `![${label}](${path})` : link,
  );
  const env: RenderEnv = { media };
  const html = markdown.render(source, env).trim();
  const single = /^<p>([\s\S]*)<\/p>$/.exec(html);
  if (single && !single[1]!.includes('<p>')) return single[1]!;
  return html;
}
