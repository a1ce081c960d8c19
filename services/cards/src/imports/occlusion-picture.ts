// An Image Occlusion card's picture: the package's picture with the card's shapes drawn over it as Anki draws
// them (@engram/anki/image-occlusion), for the import to keep as a card file like any other. sharp does the work
// on its own threads, not the event loop.
import { occlusionOverlay } from '@engram/anki/image-occlusion';
import type { OcclusionPicture } from '@engram/anki/to-engram';
import sharp from 'sharp';

/** The picture `base` with `picture`'s shapes drawn, and its type (JPEG stays JPEG, anything else is PNG). */
export async function drawOcclusion(base: Buffer, picture: OcclusionPicture): Promise<{ bytes: Buffer; type: string }> {
  // Upright first, as a browser shows it and as Anki measured the shapes on it.
  const upright = await sharp(base, { limitInputPixels: 100_000_000 }).rotate().toBuffer({ resolveWithObject: true });
  const { width, height, format } = upright.info;
  const overlay = Buffer.from(occlusionOverlay(picture.shapes, picture.asked, picture.side, { width, height }));
  const drawn = sharp(upright.data).composite([{ input: overlay, top: 0, left: 0 }]);
  if (format === 'jpeg') return { bytes: await drawn.jpeg({ quality: 90 }).toBuffer(), type: 'image/jpeg' };
  return { bytes: await drawn.png().toBuffer(), type: 'image/png' };
}
