// What a card keeps of an uploaded file: its bytes must be what its type says (read from the bytes, never
// from the name or the browser's word), an image is re-encoded (turned upright, scaled to fit
// IMAGE_MAX_DIMENSION, every metadata field such as a camera's location dropped; an SVG is drawn into a PNG,
// so none of its scripts or outside references survive), and a sound must be read through as one: an audio
// container with an audio stream and no video (sound-check.ts); it is then kept as it came.
import { createHash } from 'node:crypto';
import { IMAGE_MAX_DIMENSION, type MediaKind, mediaKindOf } from '@engram/contracts/media';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { isSoundContainer, notWhatItSays, soundTypeOf } from './sound-check.js';

export interface KeptFile {
  bytes: Buffer;
  contentType: string;
  kind: MediaKind;
  /** The kept bytes' SHA-256, hex: the same file kept twice by one learner is one file. */
  sha256: string;
  /** The extension the kept bytes have (".png" for a drawn SVG). */
  extension: string;
}

/** The pictures file-type reads from bytes, as a card keeps them. */
const PICTURES: Record<string, { contentType: string; extension: string }> = {
  'image/png': { contentType: 'image/png', extension: '.png' },
  'image/jpeg': { contentType: 'image/jpeg', extension: '.jpg' },
  'image/webp': { contentType: 'image/webp', extension: '.webp' },
  'image/gif': { contentType: 'image/gif', extension: '.gif' },
};

/** An SVG's bytes: text whose first element is <svg>, after an optional XML declaration, comments or doctype. */
function looksLikeSvg(bytes: Buffer): boolean {
  const head = bytes
    .subarray(0, 4096)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  return /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*|<!DOCTYPE[^>]*>\s*)*<svg[\s>]/i.test(head);
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function reencode(bytes: Buffer, format: 'png' | 'jpeg' | 'webp' | 'gif', fromSvg: boolean): Promise<Buffer> {
  const animated = format === 'gif' || format === 'webp';
  const image = sharp(bytes, { animated, limitInputPixels: 100_000_000, ...(fromSvg && { density: 144 }) })
    .rotate()
    .resize({ width: IMAGE_MAX_DIMENSION, height: IMAGE_MAX_DIMENSION, fit: 'inside', withoutEnlargement: true });
  switch (format) {
    case 'jpeg':
      return image.jpeg({ quality: 85, mozjpeg: true }).toBuffer();
    case 'webp':
      return image.webp({ quality: 85 }).toBuffer();
    case 'gif':
      return image.gif().toBuffer();
    default:
      return image.png().toBuffer();
  }
}

/**
 * The file a card keeps of `bytes`, uploaded as `claimedType`; refused (Invalid, MEDIA_NOT_WHAT_IT_SAYS)
 * when the bytes are not an image or sound, or not of the kind the upload said.
 */
export async function keepFile(bytes: Buffer, claimedType: string): Promise<KeptFile> {
  const claimedKind = mediaKindOf(claimedType);
  const sniffed = await fileTypeFromBuffer(bytes);
  if (sniffed && isSoundContainer(sniffed.mime)) {
    // An MP4 or WebM sent as a picture is refused for what it is too, be it a video or a sound.
    const sound = await soundTypeOf(bytes, sniffed.mime);
    if (claimedKind !== 'audio') throw notWhatItSays();
    return { bytes, ...sound, kind: 'audio', sha256: sha256(bytes) };
  }
  const picture = sniffed && PICTURES[sniffed.mime];
  if (!picture) {
    if (claimedKind !== 'image' || !looksLikeSvg(bytes)) throw notWhatItSays();
    try {
      const png = await reencode(bytes, 'png', true);
      return { bytes: png, contentType: 'image/png', kind: 'image', sha256: sha256(png), extension: '.png' };
    } catch {
      throw notWhatItSays();
    }
  }
  if (claimedKind !== 'image') throw notWhatItSays();
  const format = picture.contentType.slice('image/'.length) as 'png' | 'jpeg' | 'webp' | 'gif';
  let kept: Buffer;
  try {
    kept = await reencode(bytes, format, false);
  } catch {
    throw notWhatItSays();
  }
  return { bytes: kept, ...picture, kind: 'image', sha256: sha256(kept) };
}
