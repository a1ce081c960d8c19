// Cloze deletions, `{{c1::answer}}` or with a hint `{{c1::answer::hint}}`: what one is, which texts make a
// valid cloze card, and what each review item of a card asks and answers, in Markdown. The cards service
// checks and builds its review items with it, the web app its form, list and preview (so the browser shows
// exactly what practice asks, and refuses what the service refuses, in the same words), and ai its
// proposals. A deletion is replaced according to where it stands: in text it becomes `[…]` (or `[hint]`)
// and its answer **bold**; in maths ($…$, $$…$$) valid TeX, `\boxed{?}` and `\boxed{answer}`; in code the
// plain text, since code cannot be marked.
import type { CardType } from './learning.js';
import { OCCLUSION_PROBLEMS, occlusionOrdinals, occlusionProblem, occlusionSide } from './occlusion.ts';

/** The most deletion numbers one cloze card may have. */
export const MAX_CLOZE_DELETIONS = 50;

export type ClozeContext = 'text' | 'math' | 'code';

export interface ClozeDeletion {
  /** Where `{{` starts and just past the closing `}}`. */
  start: number;
  end: number;
  ordinal: number;
  answer: string;
  hint: string | undefined;
  context: ClozeContext;
}

const OPENING = /\{\{c(\d{1,3})::/y;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Where a deletion's text ends: the first `}}` outside braces of its own (so `\frac{a}{b}` stays whole),
 * else the first `}}` at all; -1 when it is never closed. */
function contentEnd(text: string, from: number): number {
  let depth = 0;
  for (let i = from; i < text.length - 1; i++) {
    const char = text[i];
    if (char === '\\') i++;
    else if (char === '{') depth++;
    else if (char === '}' && depth === 0 && text[i + 1] === '}') return i;
    else if (char === '}' && depth > 0) depth--;
  }
  return text.indexOf('}}', from);
}

/** The first `::` of a deletion's text outside braces, which starts its hint. */
function hintSeparator(content: string): number {
  let depth = 0;
  for (let i = 0; i < content.length - 1; i++) {
    const char = content[i];
    if (char === '\\') i++;
    else if (char === '{') depth++;
    else if (char === '}') depth = Math.max(0, depth - 1);
    else if (char === ':' && depth === 0 && content[i + 1] === ':') return i;
  }
  return -1;
}

/** Where the inline maths opened by the `$` at `at` closes (as markdown-it-katex reads it), or -1. */
function inlineMathClose(text: string, at: number): number {
  if (/\s/.test(text[at + 1] ?? ' ')) return -1;
  for (let i = at + 1; i < text.length; i++) {
    const char = text[i];
    if (char === '\\') i++;
    else if (char === '\n' && text[i + 1] === '\n') return -1;
    else if (char === '$' && !/\s/.test(text[i - 1] ?? '') && !/\d/.test(text[i + 1] ?? '')) return i;
  }
  return -1;
}

/** Every deletion of a text, in order, with the context it stands in. */
export function findDeletions(text: string): ClozeDeletion[] {
  const deletions: ClozeDeletion[] = [];
  let fence: string | undefined;
  let mathEnd = -1;
  let i = 0;
  while (i < text.length) {
    const lineStart = i === 0 || text[i - 1] === '\n';
    if (lineStart && mathEnd < i) {
      const lineEnd = text.indexOf('\n', i) === -1 ? text.length : text.indexOf('\n', i);
      const marker = FENCE.exec(text.slice(i, lineEnd))?.[1];
      // A fence opens a code block, and a fence of the same character, at least as long, closes it.
      if (marker && (!fence || (marker[0] === fence[0] && marker.length >= fence.length))) {
        fence = fence ? undefined : marker;
        i = lineEnd + 1;
        continue;
      }
    }
    const char = text[i];
    OPENING.lastIndex = i;
    const opening = char === '{' ? OPENING.exec(text) : null;
    if (opening) {
      const from = i + opening[0].length;
      const close = contentEnd(text, from);
      if (close !== -1) {
        const content = text.slice(from, close);
        const separator = hintSeparator(content);
        deletions.push({
          start: i,
          end: close + 2,
          ordinal: Number(opening[1]),
          answer: separator === -1 ? content : content.slice(0, separator),
          hint: separator === -1 ? undefined : content.slice(separator + 2),
          context: fence ? 'code' : i < mathEnd ? 'math' : 'text',
        });
        i = close + 2;
        continue;
      }
    }
    if (fence || i < mathEnd) {
      if (i === mathEnd - 1) mathEnd = -1;
      i++;
    } else if (char === '\\') {
      i += 2;
    } else if (char === '`') {
      const run = /`+/y;
      run.lastIndex = i;
      const ticks = run.exec(text)?.[0] ?? '`';
      const closing = text.indexOf(ticks, i + ticks.length);
      const inline = closing === -1 ? -1 : closing + ticks.length;
      // Inline code is code up to its closing run of the same length; deletions inside it are code.
      if (inline === -1) i += ticks.length;
      else {
        for (const deletion of findDeletions(text.slice(i + ticks.length, closing))) {
          const offset = i + ticks.length;
          deletions.push({ ...deletion, start: deletion.start + offset, end: deletion.end + offset, context: 'code' });
        }
        i = inline;
      }
    } else if (char === '$') {
      const display = text[i + 1] === '$';
      const close = display ? text.indexOf('$$', i + 2) : inlineMathClose(text, i);
      if (close === -1) i += display ? 2 : 1;
      else {
        mathEnd = close + (display ? 2 : 1);
        i += display ? 2 : 1;
      }
    } else {
      i++;
    }
  }
  return deletions;
}

/** A deletion as a card's text writes it: `{{c1::answer}}`, or `{{c1::answer::hint}}` with a hint. */
export const clozeDeletion = (ordinal: number, answer: string, hint?: string) =>
  `{{c${ordinal}::${answer}${hint ? `::${hint}` : ''}}}`;

const EXAMPLE = clozeDeletion(1, 'answer');

/** Why a text is not a valid cloze card, in the words the cards service answers and the web form shows
 * (web/messages hold the same texts under `cards_cloze_*`). Deletions are numbered from 1, as in Anki. */
export const CLOZE_PROBLEMS = {
  noDeletion: `A cloze card needs at least one deletion, like ${EXAMPLE}.`,
  numberZero: `Deletions are numbered from 1, like ${EXAMPLE}, not ${clozeDeletion(0, 'answer')}.`,
  emptyDeletion: `A deletion needs an answer to hide, like ${EXAMPLE}, not ${clozeDeletion(1, '')}.`,
  tooManyDeletions: `A cloze card can have at most ${MAX_CLOZE_DELETIONS} deletions.`,
} as const;
export type ClozeProblem = keyof typeof CLOZE_PROBLEMS;

/** Why a card's front cannot be stored as its type: a cloze's deletions, an occlusion's picture and shapes. */
export const CARD_CONTENT_PROBLEMS = { ...CLOZE_PROBLEMS, ...OCCLUSION_PROBLEMS } as const;
export type CardContentProblem = keyof typeof CARD_CONTENT_PROBLEMS;

/** Why a card's front cannot be stored as a card of `type`, or undefined when it can. Only a cloze card's and
 * an occlusion card's fronts have a syntax; the sides' lengths and the back are the schemas' (cards.ts). */
export function cardContentProblem(type: CardType, front: string): CardContentProblem | undefined {
  if (type === 'occlusion') return occlusionProblem(front);
  if (type !== 'cloze') return undefined;
  const deletions = findDeletions(front);
  if (deletions.length === 0) return 'noDeletion';
  if (deletions.some((deletion) => deletion.ordinal === 0)) return 'numberZero';
  if (deletions.some((deletion) => deletion.answer.trim() === '')) return 'emptyDeletion';
  if (clozeNumbers(front).length > MAX_CLOZE_DELETIONS) return 'tooManyDeletions';
  return undefined;
}

/** A text with every deletion replaced by its answer, without marks or hints: what the card says. */
export const clozePlainText = (text: string) => replaceDeletions(text, (deletion) => deletion.answer);

/** A text with each deletion replaced by what `replace` makes of it (given the text after it). */
function replaceDeletions(text: string, replace: (deletion: ClozeDeletion, after: string) => string): string {
  let out = '';
  let at = 0;
  for (const deletion of findDeletions(text)) {
    out += text.slice(at, deletion.start) + replace(deletion, text.slice(deletion.end));
    at = deletion.end;
  }
  return out + text.slice(at);
}

/** The distinct deletion numbers of a cloze text, ascending; 0 is not one (a card holding it is refused). */
export function clozeNumbers(text: string): number[] {
  const numbers = new Set(findDeletions(text).map((deletion) => deletion.ordinal));
  numbers.delete(0);
  return [...numbers].sort((a, b) => a - b);
}

const TEX_SPECIALS = /[\\{}$&#^_%~]/g;
const TEX_NAMED: Record<string, string> = {
  '\\': '\\textbackslash{}',
  '^': '\\textasciicircum{}',
  '~': '\\textasciitilde{}',
};
/** A hint as TeX text: its special characters escaped, so it cannot close the box or run a command. */
const texText = (text: string) => text.replace(TEX_SPECIALS, (char) => TEX_NAMED[char] ?? `\\${char}`);

function hidden(deletion: ClozeDeletion, after: string): string {
  const hint = deletion.hint?.trim();
  if (deletion.context === 'math') return hint ? `\\boxed{\\text{${texText(hint)}}}` : '\\boxed{?}';
  if (deletion.context === 'code') return `[${hint || '…'}]`;
  const gap = `[${(hint || '…').replace(/[[\]\\]/g, '\\$&')}]`;
  // `[…](x)`, `[…][x]` or `[…]: x` would read as a link: escape the brackets there.
  return /^[([:]/.test(after) ? `\\${gap.slice(0, -1)}\\]` : gap;
}

function revealed(deletion: ClozeDeletion): string {
  if (deletion.context === 'math') return `\\boxed{${deletion.answer}}`;
  if (deletion.context === 'code' || deletion.answer.trim() === '') return deletion.answer;
  const [, lead, core, trail] = /^(\s*)([\s\S]*?)(\s*)$/.exec(deletion.answer) ?? [];
  return `${lead}**${core}**${trail}`;
}

/** A cloze text with deletion `ordinal` hidden (the question) or revealed and marked (the answer); the
 * other deletions show their text. `ordinal: 'all'` reveals and marks every deletion, as the card list does. */
export function clozeSide(text: string, ordinal: number | 'all', side: 'question' | 'answer'): string {
  return replaceDeletions(text, (deletion, after) => {
    if (ordinal !== 'all' && deletion.ordinal !== ordinal) return deletion.answer;
    return side === 'question' ? hidden(deletion, after) : revealed(deletion);
  });
}

/** Appends a cloze card's extra text below its revealed text. */
const withExtra = (revealedText: string, back: string) =>
  back.trim() ? `${revealedText}\n\n---\n\n${back}` : revealedText;

/** The prompt and the answer of one review item, in Markdown. */
export function reviewItem(type: CardType, ordinal: number, front: string, back: string) {
  if (type === 'reversed' && ordinal === 1) return { prompt: back, answer: front };
  if (type === 'occlusion') {
    return {
      prompt: occlusionSide(front, ordinal, 'question'),
      answer: withExtra(occlusionSide(front, ordinal, 'answer'), back),
    };
  }
  if (type !== 'cloze') return { prompt: front, answer: back };
  return {
    prompt: clozeSide(front, ordinal, 'question'),
    answer: withExtra(clozeSide(front, ordinal, 'answer'), back),
  };
}

/** The ordinals of a card's review items: 0 (and 1 when reversed), its cloze numbers, or its occlusions'. */
export function reviewOrdinals(type: CardType, front: string): number[] {
  if (type === 'basic' || type === 'typed') return [0];
  if (type === 'reversed') return [0, 1];
  if (type === 'occlusion') return occlusionOrdinals(front);
  return clozeNumbers(front);
}

/** A card at a glance, as the card list shows it: its front (every deletion revealed and marked) and back. */
export function cardSummary(type: CardType, front: string, back: string) {
  return { front: type === 'cloze' ? clozeSide(front, 'all', 'answer') : front, back };
}
