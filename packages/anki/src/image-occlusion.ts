// Anki's Image Occlusion notes (Anki 23.10 and later): the shapes a note hides on its picture, read from its
// Occlusion field (`{{c1::image-occlusion:rect:left=.1:top=.1:width=.3:height=.3:oi=1}}`, with ellipses, polygons
// and text labels, positions as fractions of the picture's size), and each card's picture drawn as Anki draws it:
// on the question the asked shapes masked in Anki's question colour (and, when the note hides all, the others in
// its inactive colour); on the answer the asked shapes outlined, the others as on the question. Text labels (`c0`,
// asked by no card) are drawn on every picture. The drawing is an SVG laid over the picture (the cards service
// composes it with the image); nothing here reads a file.

export type OcclusionShape =
  | { kind: 'rect'; ordinal: number; left: number; top: number; width: number; height: number; hideAll: boolean }
  | { kind: 'ellipse'; ordinal: number; left: number; top: number; rx: number; ry: number; hideAll: boolean }
  | { kind: 'polygon'; ordinal: number; points: [number, number][]; hideAll: boolean }
  | { kind: 'text'; ordinal: number; left: number; top: number; text: string; fontSize: number; hideAll: boolean };

const SHAPE = /\{\{c(\d+)::image-occlusion:(rect|ellipse|polygon|text):([^}]*)\}\}/g;

/** `key=value` pairs of one shape; a text's value may hold `:` only as Anki escapes it, so it is read last. */
function properties(spec: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const part of spec.split(':')) {
    const at = part.indexOf('=');
    if (at > 0) found.set(part.slice(0, at), part.slice(at + 1));
  }
  return found;
}

const fraction = (value: string | undefined) => {
  const number = Number(value);
  return Number.isFinite(number) ? Math.min(Math.max(number, 0), 1) : 0;
};

/** The shapes of an Occlusion field, in the order written. */
export function occlusionShapes(field: string): OcclusionShape[] {
  const shapes: OcclusionShape[] = [];
  for (const [, number, kind, spec] of field.matchAll(SHAPE)) {
    const p = properties(spec ?? '');
    const base = { ordinal: Number(number), hideAll: p.get('oi') === '1' };
    const left = fraction(p.get('left'));
    const top = fraction(p.get('top'));
    if (kind === 'rect') {
      shapes.push({ ...base, kind, left, top, width: fraction(p.get('width')), height: fraction(p.get('height')) });
    } else if (kind === 'ellipse') {
      shapes.push({ ...base, kind, left, top, rx: fraction(p.get('rx')), ry: fraction(p.get('ry')) });
    } else if (kind === 'polygon') {
      const points = (p.get('points') ?? '')
        .trim()
        .split(/\s+/)
        .map((pair) => pair.split(',').map(fraction) as [number, number])
        .filter((pair) => pair.length === 2);
      if (points.length >= 3) shapes.push({ ...base, kind, points });
    } else if (kind === 'text') {
      const text = (p.get('text') ?? '').trim();
      if (text) shapes.push({ ...base, kind, left, top, text, fontSize: fraction(p.get('fs')) || 0.05 });
    }
  }
  return shapes;
}

/** Whether a note type is Anki's Image Occlusion: its stock kind, or its template drawing the occlusion canvas. */
export const isImageOcclusion = (type: { originalStockKind?: string | undefined; templates: { qfmt: string }[] }) =>
  type.originalStockKind === 'imageOcclusion' ||
  type.templates.some((template) => template.qfmt.includes('image-occlusion'));

// Anki's colours (ts/routes/image-occlusion/shapes/base.ts): the asked shape, the others, and their borders.
const QUESTION = '#ff8e8e';
const INACTIVE = '#ffeba2';
const BORDER = '#212121';
const REVEALED = '#ff0000';

const xml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function outline(shape: OcclusionShape, width: number, height: number, style: string): string {
  const x = (value: number) => (value * width).toFixed(1);
  const y = (value: number) => (value * height).toFixed(1);
  switch (shape.kind) {
    case 'rect':
      return `<rect x="${x(shape.left)}" y="${y(shape.top)}" width="${x(shape.width)}" height="${y(shape.height)}" ${style}/>`;
    case 'ellipse':
      return `<ellipse cx="${x(shape.left + shape.rx)}" cy="${y(shape.top + shape.ry)}" rx="${x(shape.rx)}" ry="${y(shape.ry)}" ${style}/>`;
    case 'polygon':
      return `<polygon points="${shape.points.map(([px, py]) => `${x(px)},${y(py)}`).join(' ')}" ${style}/>`;
    case 'text': {
      const size = (shape.fontSize * height).toFixed(1);
      return `<text x="${x(shape.left)}" y="${y(shape.top)}" dominant-baseline="hanging" font-family="sans-serif" font-size="${size}" fill="#000">${xml(shape.text)}</text>`;
    }
  }
}

/**
 * The SVG to lay over a picture of `width` × `height` for the card asking cloze number `asked`: its question or
 * its answer side.
 */
export function occlusionOverlay(
  shapes: OcclusionShape[],
  asked: number,
  side: 'question' | 'answer',
  size: { width: number; height: number },
): string {
  const { width, height } = size;
  const stroke = Math.max(1, Math.round(Math.min(width, height) / 300));
  const hideAll = shapes.some((shape) => shape.ordinal === asked && shape.hideAll);
  const drawn = shapes.map((shape) => {
    if (shape.kind === 'text') return outline(shape, width, height, '');
    if (shape.ordinal === asked) {
      return side === 'question'
        ? outline(shape, width, height, `fill="${QUESTION}" stroke="${BORDER}" stroke-width="${stroke}"`)
        : outline(shape, width, height, `fill="none" stroke="${REVEALED}" stroke-width="${stroke * 2}"`);
    }
    return hideAll
      ? outline(shape, width, height, `fill="${INACTIVE}" stroke="${BORDER}" stroke-width="${stroke}"`)
      : '';
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${drawn.join('')}</svg>`;
}
