// Turns a card side's Markdown into HTML: CommonMark, math with KaTeX ($…$ and $$…$$), and code blocks
// highlighted with highlight.js. Raw HTML in a card is shown as text, never run, so a card cannot carry
// a script; an image on another site is shown as a link, so a card cannot make the learner's browser ask
// anyone else for anything (a tracking pixel in a shared deck or a generated card). Maths and highlighting
// are heavy (KaTeX ≈ 77 KB, highlight.js ≈ 54 KB gzipped): they load only for a text that needs them
// (`featuresLoaded`), or all at once with markdown-everything.ts (practice fetches it as a session opens).
import { CARD_MARKDOWN_OPTIONS, CARD_MATH_OPTIONS } from '@engram/contracts/card-markdown';
import { isSoundName, parseMediaPath } from '@engram/contracts/media-files';
import { isOcclusionInfo } from '@engram/contracts/occlusion';
import MarkdownIt from 'markdown-it';
import { renderOcclusion } from './markdown-occlusion';

type Highlighter = (code: string, language: string) => string;
let highlighter: Highlighter | undefined;
let mathInstalled = false;

const markdown = new MarkdownIt({
  ...CARD_MARKDOWN_OPTIONS,
  highlight: (code, language) => (language && highlighter ? highlighter(code, language) : ''),
});

type MathPlugin = (md: typeof markdown, options: { throwOnError: boolean; enableFencedBlocks: boolean }) => void;

/** Typesets maths from now on (markdown-math.ts). */
export function installMath(plugin: MathPlugin) {
  if (mathInstalled) return;
  markdown.use(plugin, CARD_MATH_OPTIONS);
  mathInstalled = true;
}

/** Highlights fenced code of a known language from now on (markdown-code.ts). */
export function installHighlighter(highlight: Highlighter) {
  highlighter = highlight;
}

const NEEDS_MATH = /\$/;
// An occlusion block is a fence too, but drawn, not highlighted.
const NEEDS_HIGHLIGHTING = /^ {0,3}(`{3,}|~{3,})[ \t]*(?!occlusion\b|hint\b)[^\s`~]/m;
let mathLoading: Promise<void> | undefined;
let codeLoading: Promise<void> | undefined;
let bothLoading: Promise<void> | undefined;

/** Undefined once `source` can be rendered in full, else the (cached) loading of what it needs. */
export function featuresLoaded(source: string): Promise<void> | undefined {
  const math = !mathInstalled && NEEDS_MATH.test(source);
  const code = !highlighter && NEEDS_HIGHLIGHTING.test(source);
  if (math) mathLoading ??= import('./markdown-math').then(({ katexPlugin }) => installMath(katexPlugin));
  if (code) codeLoading ??= import('./markdown-code').then(({ highlightCode }) => installHighlighter(highlightCode));
  if (math && code) {
    bothLoading ??= Promise.all([mathLoading, codeLoading]).then(() => undefined);
    return bothLoading;
  }
  return math ? mathLoading : code ? codeLoading : undefined;
}

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
// A card's sound is written as an image whose file is a sound (entities/media/upload.ts markdownOf): it is
// drawn as the browser's own player, labelled by its alt text (practice plays it, and replays it with R). The
// player reads the file's length up front (a few bytes of it), so it never shows "0:00 / 0:00".
const defaultImage =
  markdown.renderer.rules.image ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
markdown.renderer.rules.image = (tokens, idx, options, env, self) => {
  const token = tokens[idx];
  const src = String(token?.attrGet('src') ?? '');
  const alt = token ? self.renderInlineAsText(token.children ?? [], options, env) : '';
  if (token && isOwnAddress(src) && isSoundFile(src.split(/[?#]/)[0] ?? '')) {
    const label = markdown.utils.escapeHtml(alt || src);
    return `<audio class="card-sound" controls preload="metadata" src="${markdown.utils.escapeHtml(src)}" aria-label="${label}" title="${label}"></audio>`;
  }
  if (!token || isOwnAddress(src)) return defaultImage(tokens, idx, options, env, self);
  const href = markdown.utils.escapeHtml(src);
  return `<a href="${href}" target="_blank" rel="noopener noreferrer">${markdown.utils.escapeHtml(alt || src)}</a>`;
};

// An occlusion block (```occlusion, its picture and shapes: @engram/contracts/occlusion) is drawn as the picture
// with its shapes over it (markdown-occlusion.ts); its picture follows the rule of any card picture: Engram's own
// or not shown (its alt text stands in).
const defaultFence =
  markdown.renderer.rules.fence ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
markdown.renderer.rules.fence = (tokens, idx, options, env, self) => {
  const token = tokens[idx];
  // A note's {{hint:Field}} (@engram/contracts/note-types hintBlock): folded away until asked for, its text a card's.
  const hint = token && HINT_INFO.exec(token.info);
  if (hint) {
    const label = markdown.utils.escapeHtml(hint[1] ?? '');
    return `<details class="card-hint"><summary>${label}</summary>${markdown.render(token.content, env)}</details>\n`;
  }
  if (!token || !isOcclusionInfo(token.info)) return defaultFence(tokens, idx, options, env, self);
  return renderOcclusion(token.info, token.content, (src, alt) => {
    const text = markdown.utils.escapeHtml(alt);
    if (!isOwnAddress(src) || /^\s*javascript:/i.test(src)) return `<span class="occlusion-missing">${text}</span>`;
    return `<img class="occlusion-picture" src="${markdown.utils.escapeHtml(src)}" alt="${text}">`;
  });
};

/** The info of a hint's fence: `hint <field name>`. */
const HINT_INFO = /^hint(?:\s+(.*))?$/;

/** A card file that is a sound, by its name's extension: /media/<id>/<name>.mp3. */
function isSoundFile(path: string): boolean {
  const file = parseMediaPath(path);
  return file !== undefined && isSoundName(file.name);
}

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

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const DISPLAY_MATH_THEN_TEXT = /^(\s*\$\$(?:[^$]|\$(?!\$))+?\$\$)[ \t]*([^\s$].*)$/;

/**
 * Display maths that opens a line and is closed on it, with text after it: the KaTeX plugin would read the whole
 * line as one formula (a red error). Display maths stands on its own line, as MathJax shows Anki's `\[…\]`, so
 * the text goes on the next line.
 */
export function displayMathOnItsOwnLine(source: string): string {
  if (!source.includes('$$')) return source;
  let fenced = false;
  return source
    .split('\n')
    .map((line) => {
      if (FENCE.test(line)) fenced = !fenced;
      const match = fenced ? null : DISPLAY_MATH_THEN_TEXT.exec(line);
      return match ? `${match[1]}\n${match[2]}` : line;
    })
    .join('\n');
}

export function renderMarkdown(source: string): string {
  return markdown.render(displayMathOnItsOwnLine(source));
}
