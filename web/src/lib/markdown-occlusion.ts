// An occlusion block of a card (@engram/contracts/occlusion) as the card renderer draws it: the picture, and over
// it an SVG of its shapes in fractions of the picture (a viewBox of 1000 × 1000 stretched over it, borders kept
// thin whatever the stretch). Colours are Anki's own: on a question the asked shapes masked in its question
// colour and, when they hide all, the others in its inactive colour; on the answer the asked shapes outlined in
// red (their labels shown under them), the others as on the question; in the card list and the editor's preview
// every asked shape outlined. Text labels (c0) are drawn on every side, their size a fraction of the picture's
// height (the frame learns the picture's proportions once it has loaded: markdown-body.tsx). A screen reader hears
// what is asked or revealed, in words.
import { type OcclusionShape, occlusionAsked, occlusionBox, parseOcclusionBody } from '@engram/contracts/occlusion';
import { m } from './i18n';

const QUESTION = '#ff8e8e';
const INACTIVE = '#ffeba2';
const BORDER = '#212121';
const REVEALED = '#ff0000';
const SCALE = 1000;

const escaped = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const at = (fraction: number) => (fraction * SCALE).toFixed(1);
const percent = (fraction: number) => `${(fraction * 100).toFixed(2)}%`;

function drawn(shape: OcclusionShape, paint: string): string {
  const box = occlusionBox(shape);
  const turn = shape.angle ? ` transform="rotate(${shape.angle} ${at(box.left)} ${at(box.top)})"` : '';
  const common = `${paint} vector-effect="non-scaling-stroke" data-card="${shape.ordinal}"${turn}`;
  switch (shape.kind) {
    case 'rect':
      return `<rect x="${at(shape.left)}" y="${at(shape.top)}" width="${at(shape.width)}" height="${at(shape.height)}" ${common}/>`;
    case 'ellipse':
      return `<ellipse cx="${at(shape.left + shape.rx)}" cy="${at(shape.top + shape.ry)}" rx="${at(shape.rx)}" ry="${at(shape.ry)}" ${common}/>`;
    case 'polygon':
      return `<polygon points="${shape.points.map(([x, y]) => `${at(x)},${at(y)}`).join(' ')}" ${common}/>`;
    case 'text':
      return '';
  }
}

const masked = (colour: string) => `fill="${colour}" stroke="${BORDER}" stroke-width="1"`;
const outlined = `fill="none" stroke="${REVEALED}" stroke-width="3"`;
const listed = `fill="${QUESTION}" fill-opacity="0.35" stroke="${REVEALED}" stroke-width="2"`;

/** The HTML of an occlusion block whose fence info is `info` and body `body`; `picture` draws its `<img>`. */
export function renderOcclusion(info: string, body: string, picture: (src: string, alt: string) => string): string {
  const { picture: image, shapes } = parseOcclusionBody(body);
  const asked = occlusionAsked(info);
  const hideAll = asked !== undefined && shapes.some((shape) => shape.ordinal === asked.ordinal && shape.hideAll);
  const masks = shapes.map((shape) => {
    if (shape.kind === 'text' || shape.ordinal === 0) return '';
    if (!asked) return drawn(shape, listed);
    if (shape.ordinal === asked.ordinal) {
      return drawn(shape, asked.side === 'question' ? masked(QUESTION) : outlined);
    }
    return hideAll ? drawn(shape, masked(INACTIVE)) : '';
  });
  const texts = shapes.filter((shape) => shape.kind === 'text');
  const labelled = asked?.side === 'answer' ? shapes.filter((s) => s.ordinal === asked.ordinal && s.label) : [];
  const overlays = [
    ...texts.map(
      (shape) =>
        `<span class="occlusion-text" aria-hidden="true" style="left:${percent(shape.left)};top:${percent(shape.top)};--occlusion-font:${shape.fontSize};color:${shape.fill ?? '#000'}">${escaped(shape.text)}</span>`,
    ),
    ...labelled.map((shape) => {
      const box = occlusionBox(shape);
      return `<span class="occlusion-label" aria-hidden="true" style="left:${percent(box.left)};top:${percent(Math.min(box.bottom, 0.95))}">${escaped(shape.label ?? '')}</span>`;
    }),
  ];
  const labels = [...new Set(labelled.map((shape) => shape.label))].join(', ');
  const words = !asked
    ? ''
    : asked.side === 'question'
      ? m.occlusion_question()
      : labels
        ? m.occlusion_answer({ label: labels })
        : m.occlusion_answer_unnamed();
  const side = asked?.side ?? 'all';
  return [
    `<figure class="occlusion" data-occlusion="${side}"${asked ? ` data-asked="${asked.ordinal}"` : ''}>`,
    '<div class="occlusion-frame">',
    image ? picture(image.src, image.alt) : '',
    `<svg class="occlusion-masks" viewBox="0 0 ${SCALE} ${SCALE}" preserveAspectRatio="none" aria-hidden="true" focusable="false">${masks.join('')}</svg>`,
    ...overlays,
    '</div>',
    words ? `<figcaption class="sr-only">${escaped(words)}</figcaption>` : '',
    '</figure>',
  ].join('');
}
