// Image occlusion cards: a picture with shapes over it, each shape hiding a part the learner recalls. A card of
// type `occlusion` holds them in its front as a fenced block, in Anki's own Image Occlusion format (Anki 23.10
// and later: `{{c1::image-occlusion:rect:left=.1:top=.1:width=.3:height=.3:oi=1}}`, positions and sizes as
// fractions of the picture, `oi=1` "hide all, guess one"), so an Anki note comes in and goes out as it is:
//
//     The heart                      ← the header, any Markdown above (or below) the block
//     ```occlusion
//     ![Heart](/media/<id>/heart.png)
//     {{c1::image-occlusion:rect:left=.1:top=.2:width=.3:height=.1:label=Aorta:oi=1}}
//     {{c2::image-occlusion:ellipse:left=.5:top=.5:rx=.1:ry=.05:oi=1}}
//     ```
//
// Each card number (`cN`) is one review item, as a cloze's deletions are; shapes sharing a number are asked
// together (a group); `c0` is a text label drawn on every side and asked by none. A shape may carry a `label`
// (what it hides: shown when it is revealed, and read out), a property Anki keeps and ignores. The review item
// asking number N shows the block with its info turned to `occlusion N question` / `occlusion N answer`; the
// web app's renderer draws it (the picture with the masks as SVG). Pure functions: the cards service, the
// web app, the Anki package and ai share them.

export type OcclusionShapeKind = 'rect' | 'ellipse' | 'polygon' | 'text';

interface ShapeBase {
  /** The card number asking it (0: a text label no card asks). */
  ordinal: number;
  /** Hide all, guess one: on its card's question every other shape is masked too. */
  hideAll: boolean;
  /** What the shape hides, in words (optional). */
  label?: string | undefined;
  /** Turned by this many degrees about its top left corner, as Anki's editor may leave a shape. */
  angle?: number | undefined;
}

export type OcclusionShape =
  | (ShapeBase & { kind: 'rect'; left: number; top: number; width: number; height: number })
  | (ShapeBase & { kind: 'ellipse'; left: number; top: number; rx: number; ry: number })
  // Anki writes a polygon's box (left, top) beside its points, measured with its border: kept as written.
  | (ShapeBase & { kind: 'polygon'; points: [number, number][]; left?: number; top?: number })
  | (ShapeBase & { kind: 'text'; left: number; top: number; text: string; fontSize: number; fill?: string });

/** The picture an occlusion card draws its shapes on: its alt text and address, as its Markdown writes them. */
export interface OcclusionPicture {
  alt: string;
  src: string;
}

/** The most card numbers one occlusion card may ask (as many as a cloze's deletions). */
export const MAX_OCCLUSION_CARDS = 50;
/** The most shapes one occlusion card may draw. */
export const MAX_OCCLUSION_SHAPES = 200;
/** The longest front of an occlusion card, in characters: its shapes are written out (a polygon's points too). */
export const OCCLUSION_FRONT_MAX_LENGTH = 20_000;
/** The longest label of a shape. */
export const OCCLUSION_LABEL_MAX_LENGTH = 100;

/** The fence's info word. */
export const OCCLUSION_FENCE = 'occlusion';

const SHAPE = /\{\{c(\d{1,3})::image-occlusion:(rect|ellipse|polygon|text):((?:\\.|[^}])*)\}\}/g;

/** Splits on each `:` no backslash escapes (Anki writes a value's `:` as `\:`). */
function splitProperties(spec: string): string[] {
  const parts: string[] = [];
  let start = 0;
  for (let i = 0; i < spec.length; i++) {
    if (spec[i] === '\\') i++;
    else if (spec[i] === ':') {
      parts.push(spec.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(spec.slice(start));
  return parts;
}

/** `key=value` pairs of one shape, values unescaped. */
function properties(spec: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const part of splitProperties(spec)) {
    const at = part.indexOf('=');
    if (at > 0) found.set(part.slice(0, at), part.slice(at + 1).replaceAll('\\:', ':'));
  }
  return found;
}

const fraction = (value: string | undefined) => {
  const number = Number(value);
  return Number.isFinite(number) ? Math.min(Math.max(number, 0), 1) : 0;
};

/** The shapes written in a text (Anki's Occlusion field, or an occlusion block), in the order written. */
export function occlusionShapes(text: string): OcclusionShape[] {
  const shapes: OcclusionShape[] = [];
  for (const [, number, kind, spec] of text.matchAll(SHAPE)) {
    const p = properties(spec ?? '');
    // As written (an editor writes each keystroke), when it says anything.
    const label = p.get('label')?.trim() ? p.get('label') : undefined;
    const angle = Number(p.get('angle'));
    const base = {
      ordinal: Number(number),
      hideAll: p.get('oi') === '1',
      ...(label && { label }),
      ...(Number.isFinite(angle) && angle !== 0 && { angle }),
    };
    const left = fraction(p.get('left'));
    const top = fraction(p.get('top'));
    if (kind === 'rect') {
      const width = fraction(p.get('width'));
      const height = fraction(p.get('height'));
      if (width > 0 && height > 0) shapes.push({ ...base, kind, left, top, width, height });
    } else if (kind === 'ellipse') {
      const rx = fraction(p.get('rx'));
      const ry = fraction(p.get('ry'));
      if (rx > 0 && ry > 0) shapes.push({ ...base, kind, left, top, rx, ry });
    } else if (kind === 'polygon') {
      const points = (p.get('points') ?? '')
        .trim()
        .split(/\s+/)
        .map((pair) => pair.split(',').map(fraction))
        .filter((pair): pair is [number, number] => pair.length === 2);
      const box = p.has('left') && p.has('top') ? { left, top } : {};
      if (points.length >= 3) shapes.push({ ...base, kind, points, ...box });
    } else if (kind === 'text') {
      const text = (p.get('text') ?? '').trim();
      const fill = /^#[0-9a-f]{3,8}$/i.test(p.get('fill') ?? '') ? { fill: p.get('fill') } : {};
      if (text) shapes.push({ ...base, kind, left, top, text, fontSize: fraction(p.get('fs')) || 0.05, ...fill });
    }
  }
  return shapes;
}

/** A fraction as Anki writes one: at most four decimals, no leading zero (`.1167`). */
const decimal = (value: number) => {
  const fixed = Number(Math.min(Math.max(value, 0), 1).toFixed(4)).toString();
  return fixed.startsWith('0.') ? fixed.slice(1) : fixed;
};

/** A property value as Anki reads it: `:` escaped, and no brace (which would end the shape). */
const value = (text: string) =>
  text
    .replace(/[{}\n\r]/g, ' ')
    .replace(/\\+$/, '')
    .replaceAll(':', '\\:');

/** One shape in Anki's format. */
export function occlusionShapeText(shape: OcclusionShape): string {
  const parts: string[] = [shape.kind];
  if (shape.kind === 'rect') {
    parts.push(`left=${decimal(shape.left)}`, `top=${decimal(shape.top)}`);
    parts.push(`width=${decimal(shape.width)}`, `height=${decimal(shape.height)}`);
  } else if (shape.kind === 'ellipse') {
    parts.push(`left=${decimal(shape.left)}`, `top=${decimal(shape.top)}`);
    parts.push(`rx=${decimal(shape.rx)}`, `ry=${decimal(shape.ry)}`);
  } else if (shape.kind === 'polygon') {
    const left = shape.left ?? Math.min(...shape.points.map(([x]) => x));
    const top = shape.top ?? Math.min(...shape.points.map(([, y]) => y));
    parts.push(`left=${decimal(left)}`, `top=${decimal(top)}`);
    parts.push(`points=${shape.points.map(([x, y]) => `${decimal(x)},${decimal(y)}`).join(' ')}`);
  } else {
    parts.push(`left=${decimal(shape.left)}`, `top=${decimal(shape.top)}`, `fill=${shape.fill ?? '#000000'}`);
    parts.push(`text=${value(shape.text)}`, 'scale=1.', `fs=${decimal(shape.fontSize)}`);
  }
  if (shape.angle) parts.push(`angle=${Number(shape.angle.toFixed(2))}`);
  if (shape.label) parts.push(`label=${value(shape.label)}`);
  if (shape.hideAll) parts.push('oi=1');
  return `{{c${shape.ordinal}::image-occlusion:${parts.join(':')}}}`;
}

/** The box a shape covers, in fractions of the picture (a text label's: its first line's height). */
export function occlusionBox(shape: OcclusionShape): { left: number; top: number; right: number; bottom: number } {
  switch (shape.kind) {
    case 'rect':
      return { left: shape.left, top: shape.top, right: shape.left + shape.width, bottom: shape.top + shape.height };
    case 'ellipse':
      return { left: shape.left, top: shape.top, right: shape.left + 2 * shape.rx, bottom: shape.top + 2 * shape.ry };
    case 'polygon': {
      const xs = shape.points.map(([x]) => x);
      const ys = shape.points.map(([, y]) => y);
      return { left: Math.min(...xs), top: Math.min(...ys), right: Math.max(...xs), bottom: Math.max(...ys) };
    }
    case 'text':
      return { left: shape.left, top: shape.top, right: shape.left, bottom: shape.top + shape.fontSize };
  }
}

/** Where an occlusion block stands in a card's front: the fence lines and what they hold. */
interface OcclusionBlock {
  /** The start of its opening fence line and just past its closing one (or the text's end). */
  start: number;
  end: number;
  fence: string;
  body: string;
}

const OPENING = /^ {0,3}(`{3,}|~{3,})[ \t]*occlusion\b[^\n]*$/m;

function findBlock(front: string): OcclusionBlock | undefined {
  const opening = OPENING.exec(front);
  if (!opening) return undefined;
  const fence = opening[1] ?? '```';
  const bodyStart = opening.index + opening[0].length + 1;
  const closing = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}[ \\t]*$`, 'm');
  const rest = front.slice(bodyStart);
  const close = closing.exec(rest);
  const bodyEnd = close ? bodyStart + close.index : front.length;
  const end = close ? bodyStart + close.index + close[0].length : front.length;
  return { start: opening.index, end, fence, body: front.slice(Math.min(bodyStart, bodyEnd), bodyEnd) };
}

const PICTURE = /!\[((?:\\.|[^\]\\])*)\]\(\s*<?([^\s)>]+)>?(?:\s+"[^"]*")?\s*\)/;

/** The occlusion of a card's front: its picture, its shapes, and the header around the block. */
export interface Occlusion {
  picture: OcclusionPicture | undefined;
  shapes: OcclusionShape[];
  /** The front's Markdown before and after the block. */
  before: string;
  after: string;
}

/** The occlusion a front holds, or undefined when it has no occlusion block. */
export function parseOcclusion(front: string): Occlusion | undefined {
  const block = findBlock(front);
  if (!block) return undefined;
  return {
    ...parseOcclusionBody(block.body),
    before: front.slice(0, block.start).trim(),
    after: front.slice(block.end).trim(),
  };
}

/** The picture and shapes inside an occlusion block. */
export function parseOcclusionBody(body: string): Pick<Occlusion, 'picture' | 'shapes'> {
  const picture = PICTURE.exec(body);
  return {
    picture: picture ? { alt: picture[1] ?? '', src: picture[2] ?? '' } : undefined,
    shapes: occlusionShapes(body),
  };
}

/** A front holding `occlusion`: its header, then the block (the picture, then a shape a line). */
export function occlusionFront(occlusion: {
  header?: string;
  picture: OcclusionPicture;
  shapes: OcclusionShape[];
}): string {
  const alt = occlusion.picture.alt.replace(/[[\]\\]/g, '\\$&');
  const block = [
    '```occlusion',
    `![${alt}](${occlusion.picture.src})`,
    ...occlusion.shapes.map(occlusionShapeText),
    '```',
  ].join('\n');
  const header = occlusion.header?.trim();
  return header ? `${header}\n\n${block}` : block;
}

/** The card numbers an occlusion front asks, ascending (0, the labels' number, is none). */
export function occlusionOrdinals(front: string): number[] {
  const numbers = new Set((parseOcclusion(front)?.shapes ?? []).map((shape) => shape.ordinal));
  numbers.delete(0);
  return [...numbers].sort((a, b) => a - b);
}

/** The front as the review item asking `ordinal` shows it: the block marked with the number and the side. */
export function occlusionSide(front: string, ordinal: number, side: 'question' | 'answer'): string {
  const block = findBlock(front);
  if (!block) return front;
  const opening = `${block.fence}${OCCLUSION_FENCE} ${ordinal} ${side}`;
  const bodyAt = front.indexOf('\n', block.start);
  return `${front.slice(0, block.start)}${opening}${bodyAt === -1 ? '' : front.slice(bodyAt)}`;
}

/** What a fence's info asks: every shape outlined (`occlusion`), or card `ordinal`'s question or answer. */
export function occlusionAsked(info: string): { ordinal: number; side: 'question' | 'answer' } | undefined {
  const match = /^occlusion\s+(\d{1,3})\s+(question|answer)\b/.exec(info.trim());
  return match ? { ordinal: Number(match[1]), side: match[2] as 'question' | 'answer' } : undefined;
}

/** Whether a fence's info opens an occlusion block. */
export const isOcclusionInfo = (info: string) => /^occlusion\b/.test(info.trim());

/** Why an occlusion front cannot be saved, in the words the cards service answers and the web app shows. */
export const OCCLUSION_PROBLEMS = {
  noOcclusion: 'An occlusion card needs its picture and shapes in an occlusion block.',
  noPicture: 'An occlusion card needs a picture to draw its shapes on.',
  noShape: 'An occlusion card needs at least one shape to hide.',
  tooManyCards: `An occlusion card can ask at most ${MAX_OCCLUSION_CARDS} groups of shapes.`,
  tooManyShapes: `An occlusion card can have at most ${MAX_OCCLUSION_SHAPES} shapes.`,
} as const;
export type OcclusionProblem = keyof typeof OCCLUSION_PROBLEMS;

/** Why a front is not a valid occlusion card, or undefined. */
export function occlusionProblem(front: string): OcclusionProblem | undefined {
  const occlusion = parseOcclusion(front);
  if (!occlusion) return 'noOcclusion';
  if (!occlusion.picture) return 'noPicture';
  if (occlusion.shapes.length > MAX_OCCLUSION_SHAPES) return 'tooManyShapes';
  const asked = occlusionOrdinals(front);
  if (asked.length === 0) return 'noShape';
  if (asked.length > MAX_OCCLUSION_CARDS) return 'tooManyCards';
  return undefined;
}
