// Anki field HTML to safe Markdown. The HTML is sanitised first (no script, style, event handler or
// javascript: URL survives), then converted; images become `![](media:<name>)` and `[sound:x.mp3]` a
// `[sound](media:x.mp3)` link, the `media:` placeholders naming the package's files for the importer to
// replace. Cloze markers (`{{c1::`, the hint's `::`, `}}`) are swapped for private-use characters before
// the conversion and back after it, so HTML inside a deletion is converted while the deletion stays whole.
// Anki's MathJax, `\(…\)` inline and `\[…\]` display, becomes Engram's `$…$` and `$$…$$` (KaTeX), its TeX kept
// as written (set aside before the conversion, which would escape it); a `$` Anki shows as a dollar stays one.
import type { Root } from 'hast';
import type { Root as MdastRoot, Nodes } from 'mdast';
import rehypeParse from 'rehype-parse';
import rehypeRemark from 'rehype-remark';
import rehypeSanitize, { defaultSchema } from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import remarkStringify from 'remark-stringify';
import { unified } from 'unified';

/** The placeholder URL of media `name` (its name URL-encoded, so any name makes a valid link). */
export const mediaUrl = (name: string) => `media:${encodeURIComponent(name)}`;

export interface Converted {
  markdown: string;
  /** The media names the Markdown refers to, each once. */
  media: string[];
}

const OPEN = '\uE000';
const NUMBER_END = '\uE001';
const HINT = '\uE002';
const CLOSE = '\uE003';
const SOUND = '\uE004';
const SOUND_END = '\uE005';
const MATH = '\uE006';
const MATH_END = '\uE007';

/** HTML entities and tags inside TeX, as Anki's editor leaves them there: MathJax reads the text. */
const texOf = (html: string) =>
  html
    .replace(/<br\s*\/?>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .trim();

/** Sets Anki's MathJax aside as placeholders; `restoreMath` puts it back as KaTeX's delimiters. */
function protectMath(html: string): { text: string; maths: string[] } {
  const maths: string[] = [];
  const text = html.replace(/\\\(([\s\S]+?)\\\)|\\\[([\s\S]+?)\\\]/g, (_, inline?: string, display?: string) => {
    maths.push(inline !== undefined ? `$${texOf(inline)}$` : `$$${texOf(display ?? '')}$$`);
    return `${MATH}${maths.length - 1}${MATH_END}`;
  });
  return { text, maths };
}

/** A dollar Anki shows as a dollar is escaped, so KaTeX does not read it; then the maths comes back. */
const restoreMath = (markdown: string, maths: string[]) =>
  markdown
    .replace(/(?<!\\)\$/g, '\\$')
    .replace(new RegExp(`${MATH}(\\d+)${MATH_END}`, 'g'), (_, n: string) => maths[Number(n)] ?? '');

const schema = {
  ...defaultSchema,
  strip: ['script', 'style', 'template', 'noscript', 'iframe', 'object', 'embed', 'svg', 'math'],
};

/** What the HTML hides with its own inline style (`display: none`) stays hidden: it is left out. */
const HIDDEN = /(^|;)\s*display\s*:\s*none\s*(!important\s*)?(;|$)/i;
function dropHidden() {
  const prune = (node: Root | Root['children'][number]) => {
    if (!('children' in node)) return;
    node.children = node.children.filter(
      (child) => !(child.type === 'element' && HIDDEN.test(String(child.properties?.style ?? ''))),
    ) as typeof node.children;
    for (const child of node.children) prune(child);
  };
  return (tree: Root) => prune(tree);
}

const processor = unified()
  .use(rehypeParse, { fragment: true })
  .use(dropHidden)
  .use(rehypeSanitize, schema)
  .use(rehypeRemark)
  .use(remarkGfm)
  .use(remarkStringify, { bullet: '-', emphasis: '*', strong: '*', fence: '`', rule: '-' });

/** Replaces cloze markers outside HTML tags by placeholders; nested deletions are tracked by depth. */
function protectCloze(html: string): string {
  let out = '';
  const hinted: boolean[] = [];
  let i = 0;
  while (i < html.length) {
    const open = /^\{\{c(\d{1,3})::/.exec(html.slice(i, i + 10));
    if (open) {
      out += `${OPEN}${open[1]}${NUMBER_END}`;
      hinted.push(false);
      i += open[0].length;
    } else if (hinted.length > 0 && html.startsWith('}}', i)) {
      out += CLOSE;
      hinted.pop();
      i += 2;
    } else if (hinted.length > 0 && !hinted.at(-1) && html.startsWith('::', i)) {
      out += HINT;
      hinted[hinted.length - 1] = true;
      i += 2;
    } else {
      out += html[i];
      i++;
    }
  }
  return out;
}

function restoreCloze(markdown: string): string {
  return markdown
    .replace(new RegExp(`${OPEN}(\\d{1,3})${NUMBER_END}`, 'g'), '{{c$1::')
    .replaceAll(HINT, '::')
    .replaceAll(CLOSE, '}}');
}

/** The media name an `<img src>` refers to, or undefined for an outside URL. */
function mediaName(src: string): string | undefined {
  if (!src || /^[a-z][a-z0-9+.-]*:/i.test(src) || src.startsWith('//')) return undefined;
  try {
    return decodeURIComponent(src);
  } catch {
    return src;
  }
}

/**
 * Text the full conversion gives back unchanged but for its spaces (collapsed, trimmed): letters, digits, spaces
 * and punctuation that Markdown and HTML read as themselves (no colon, which may start a link or be escaped),
 * cloze markers already swapped for their placeholders. Not a line a Markdown block could start (`1.`, `2)`, `-`,
 * `+`, `=`), nor a bare `www.` link: those go the full way.
 */
const PLAIN = /^[\p{L}\p{N} ,.?!'"()%;+=/\uE000-\uE003-]*$/u;
const BLOCK_START = /^\s*(?:\d+[.)]|[-+=])/;
/** What GFM reads as a link without brackets. */
const BARE_LINK = /www\./i;

/** Converts one Anki field (or rendered template) to safe Markdown. */
export function htmlToMarkdown(html: string): Converted {
  if (html.includes('\\(') || html.includes('\\[') || html.includes('$')) {
    const { text, maths } = protectMath(html);
    const converted = convertHtml(text);
    return { ...converted, markdown: restoreMath(converted.markdown, maths) };
  }
  if (!html.includes('[sound:')) {
    const text = protectCloze(html);
    // Most fields are words and numbers: the same Markdown as the full conversion, without parsing HTML.
    if (PLAIN.test(text) && !BLOCK_START.test(text) && !BARE_LINK.test(text)) {
      return { markdown: restoreCloze(text.trim().replace(/\s+/g, ' ')), media: [] };
    }
  }
  return convertHtml(html);
}

/** The full conversion: parsed as HTML, sanitised, turned into Markdown (htmlToMarkdown's way for any field). */
export function convertHtml(html: string): Converted {
  const media = new Set<string>();
  const sounds: string[] = [];
  let text = html.replace(/\[sound:([^\]]*)\]/g, (_, name: string) => {
    sounds.push(name.trim());
    return `${SOUND}${sounds.length - 1}${SOUND_END}`;
  });
  text = protectCloze(text);
  const hast = processor.runSync(processor.parse(text) as Root) as unknown as MdastRoot;
  visit(hast, media);
  let markdown = processor.stringify(hast).trim();
  markdown = restoreCloze(markdown).replace(new RegExp(`${SOUND}(\\d+)${SOUND_END}`, 'g'), (_, n: string) => {
    const name = sounds[Number(n)] ?? '';
    media.add(name);
    return `[sound](${mediaUrl(name)})`;
  });
  // A literal & or non-breaking space from Anki reads as plain text, not an entity Markdown would change.
  markdown = markdown.replace(/\u00a0/g, ' ');
  return { markdown, media: [...media].filter(Boolean) };
}

/** Points images at their media placeholders and collects the names. */
function visit(node: Nodes, media: Set<string>): void {
  if (node.type === 'image') {
    const name = mediaName(node.url);
    if (name !== undefined) {
      media.add(name);
      node.url = mediaUrl(name);
    }
    node.alt = node.alt ?? '';
  }
  if ('children' in node) for (const child of node.children) visit(child, media);
}

/** A template tag's stand-in while its template is converted: letters alone, which no step of it changes. */
const tagStandIn = (n: number) => `engramtag${n}x`;

/**
 * Converts an Anki card template to an Engram one: its HTML sanitised and turned into Markdown as a field is (its
 * scripts, styles and comments gone), its `{{…}}` tags kept as they were, wherever they stand.
 */
export function templateToMarkdown(html: string): Converted {
  const tags: string[] = [];
  const text = html.replace(/\{\{[\s\S]*?\}\}/g, (tag) => {
    tags.push(tag);
    return tagStandIn(tags.length - 1);
  });
  const converted = htmlToMarkdown(text);
  const markdown = converted.markdown.replace(/engramtag(\d+)x/g, (_, n: string) => tags[Number(n)] ?? '');
  return { ...converted, markdown };
}
