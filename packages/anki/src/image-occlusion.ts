// Anki's Image Occlusion notes (Anki 23.10 and later): recognising the note type, and reading its fields as an
// Engram occlusion card (@engram/contracts/occlusion keeps Anki's Occlusion field format as it is, so the
// shapes come in, and go back out, as Anki wrote them). The note type's fields, in order: Occlusion (the
// shapes, `{{c1::image-occlusion:rect:left=.1:top=.1:width=.3:height=.3:oi=1}}` separated by `<br>`), Image
// (an `<img>`), Header, Back Extra, Comments.
import { type OcclusionShape, occlusionShapes } from '@engram/contracts/occlusion';

export { type OcclusionShape, occlusionShapes };

/** Whether a note type is Anki's Image Occlusion: its stock kind, or its template drawing the occlusion canvas. */
export const isImageOcclusion = (type: { originalStockKind?: string | undefined; templates: { qfmt: string }[] }) =>
  type.originalStockKind === 'imageOcclusion' ||
  type.templates.some((template) => template.qfmt.includes('image-occlusion'));

/** The package's picture a field shows (its first `<img>`), by its name in the package. */
export function pictureOf(html: string): string | undefined {
  const src = /<img[^>]*?\ssrc=["']?([^"'>]+)/i.exec(html)?.[1];
  if (!src) return undefined;
  try {
    return decodeURIComponent(src.replaceAll('&amp;', '&'));
  } catch {
    return src;
  }
}
