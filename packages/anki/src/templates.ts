// Rendering an Anki card template for a note of a type we have no Engram equivalent for: field
// replacements `{{Field}}`, filters (`text:`, `hint:`, `cloze:`, `type:` (empty on the question, the answer on
// the answer side); others, like `tts` or `furigana`, are dropped and the field shown), sections
// `{{#Field}}…{{/Field}}` and inverted `{{^Field}}…{{/Field}}`, and the special `{{FrontSide}}`, `{{Tags}}`, `{{Deck}}`, `{{Subdeck}}`, `{{Type}}`, `{{Card}}`.
// The output is HTML, converted to Markdown afterwards like any field.

export interface TemplateContext {
  fields: Record<string, string>;
  frontSide?: string;
  tags?: string[];
  deck?: string;
  noteType?: string;
  card?: string;
  /** For `{{cloze:Field}}`: the deletion number this card asks, and which side is rendered. */
  clozeOrdinal?: number;
  side?: 'question' | 'answer';
}

const TAG = /\{\{([#^/]?)([^{}]*?)\}\}/g;

/** Whether a field counts as non-empty for a section: Anki ignores HTML-only and blank content. */
const filled = (html: string | undefined) => !!html && html.replace(/<[^>]*>|&nbsp;|\s/g, '') !== '';

function clozeFilter(text: string, ordinal: number | undefined, side: 'question' | 'answer'): string {
  return text.replace(/\{\{c(\d+)::([\s\S]*?)(?:::([\s\S]*?))?\}\}/g, (_, n: string, answer: string, hint?: string) => {
    if (ordinal !== undefined && Number(n) !== ordinal) return answer;
    return side === 'question' ? `[${hint ?? '...'}]` : `<b>${answer}</b>`;
  });
}

function special(name: string, context: TemplateContext): string | undefined {
  switch (name) {
    case 'FrontSide':
      return context.frontSide ?? '';
    case 'Tags':
      return (context.tags ?? []).join(' ');
    case 'Deck':
      return context.deck ?? '';
    case 'Subdeck':
      return (context.deck ?? '').split('::').at(-1) ?? '';
    case 'Type':
      return context.noteType ?? '';
    case 'Card':
      return context.card ?? '';
    default:
      return undefined;
  }
}

function replacement(spec: string, context: TemplateContext): string {
  const parts = spec.split(':').map((part) => part.trim());
  const name = parts.pop() ?? '';
  const filters = parts;
  let value = special(name, context) ?? context.fields[name] ?? '';
  // Filters apply right to left, as Anki applies them.
  for (const filter of filters.reverse()) {
    if (filter === 'text') value = value.replace(/<[^>]*>/g, '');
    else if (filter === 'cloze') value = clozeFilter(value, context.clozeOrdinal, context.side ?? 'question');
    else if (filter === 'hint') value = value ? `<details><summary>${name}</summary>${value}</details>` : '';
    // A typed answer: nothing to type into on the question; the answer shows what was to be typed, as Anki does.
    else if (filter === 'type') value = context.side === 'answer' ? value : '';
    else if (filter === 'cloze-only') value = '';
  }
  return value;
}

/** Renders `template` for one note. */
export function renderTemplate(template: string, context: TemplateContext): string {
  let out = '';
  let at = 0;
  const stack: { name: string; show: boolean; outerShow: boolean }[] = [];
  let showing = true;
  for (const match of template.matchAll(TAG)) {
    if (showing) out += template.slice(at, match.index);
    at = match.index + match[0].length;
    const [, kind, raw] = match;
    const name = (raw ?? '').trim();
    if (kind === '#' || kind === '^') {
      const isFilled = filled(context.fields[name] ?? special(name, context));
      stack.push({ name, show: showing, outerShow: showing });
      showing = showing && (kind === '#' ? isFilled : !isFilled);
    } else if (kind === '/') {
      // A closing tag without its opening one is ignored, as Anki shows such a template anyway.
      const index = stack.findLastIndex((open) => open.name === name);
      if (index !== -1) {
        showing = stack[index]!.outerShow;
        stack.length = index;
      }
    } else if (showing) {
      out += replacement(name, context);
    }
  }
  if (showing) out += template.slice(at);
  return out;
}
