// The offline proposer's eyes (it has no model): where a diagram's labels are. A diagram's labels are dark marks
// (letters) on a lighter ground, set in words and lines; the picture is read small and grey, its dark marks (well
// darker than what surrounds them) are joined along the line so that letters make words, and each group of them
// the size of a label is a region. What a region says it cannot read: the learner names it. Runs in a reader
// process (reader-process.ts): sharp decodes the learner's picture there, never in the service's own.
import sharp, { type OutputInfo } from 'sharp';

/** A box in fractions of the picture. */
export interface PictureRegion {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The width the picture is read at: enough for labels of a few letters, quick to walk. */
const READ_WIDTH = 320;
/** How far letters may stand apart in a word, and lines of a label apart, in pixels at READ_WIDTH. */
const JOIN_ACROSS = 4;
const JOIN_DOWN = 1;
/** A label is at least this much of the picture across and down, and at most this much of its area. */
const MIN_WIDTH = 0.02;
const MIN_HEIGHT = 0.02;
const MAX_WIDTH = 0.5;
const MAX_AREA = 0.12;
/** Room left around a region so the mask covers the label whole. */
const MARGIN = 0.01;

/** The regions of a picture that look like its labels, top to bottom; undefined when it is not a picture. */
export async function pictureRegions(content: Uint8Array, maxRegions: number): Promise<PictureRegion[] | undefined> {
  let image: { data: Buffer; info: OutputInfo };
  try {
    image = await sharp(content, { limitInputPixels: 40_000_000 })
      .rotate()
      .greyscale()
      .resize({ width: READ_WIDTH, withoutEnlargement: false })
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch {
    return undefined;
  }
  const { width, height } = image.info;
  const ink = darkMarks(image.data, width, height);
  const joined = dilate(ink, width, height);
  return boxes(joined, width, height)
    .map((box) => ({
      left: Math.max(0, box.left / width - MARGIN),
      top: Math.max(0, box.top / height - MARGIN),
      right: Math.min(1, (box.right + 1) / width + MARGIN),
      bottom: Math.min(1, (box.bottom + 1) / height + MARGIN),
      pixels: box.pixels,
    }))
    .filter((box) => {
      const w = box.right - box.left;
      const h = box.bottom - box.top;
      // A diagram's lines are too thin (or too long) to be a label; its large dark parts too big.
      return w >= MIN_WIDTH && w <= MAX_WIDTH && h >= MIN_HEIGHT && h < 0.25 && w * h <= MAX_AREA;
    })
    .sort((a, b) => b.pixels - a.pixels)
    .slice(0, maxRegions)
    .sort((a, b) => a.top - b.top || a.left - b.left)
    .map((box) => ({ left: box.left, top: box.top, width: box.right - box.left, height: box.bottom - box.top }));
}

/** The pixels well darker than their surroundings (a 15-pixel box around each): ink, not shading. */
function darkMarks(grey: Buffer, width: number, height: number): Uint8Array {
  // A summed-area table gives each pixel's neighbourhood mean in constant time.
  const sums = new Float64Array((width + 1) * (height + 1));
  for (let y = 0; y < height; y++) {
    let row = 0;
    for (let x = 0; x < width; x++) {
      row += grey[y * width + x] ?? 0;
      sums[(y + 1) * (width + 1) + x + 1] = (sums[y * (width + 1) + x + 1] ?? 0) + row;
    }
  }
  const radius = 7;
  const marks = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const y0 = Math.max(0, y - radius);
    const y1 = Math.min(height, y + radius + 1);
    for (let x = 0; x < width; x++) {
      const x0 = Math.max(0, x - radius);
      const x1 = Math.min(width, x + radius + 1);
      const area = (x1 - x0) * (y1 - y0);
      const sum =
        (sums[y1 * (width + 1) + x1] ?? 0) -
        (sums[y0 * (width + 1) + x1] ?? 0) -
        (sums[y1 * (width + 1) + x0] ?? 0) +
        (sums[y0 * (width + 1) + x0] ?? 0);
      const value = grey[y * width + x] ?? 0;
      if (value < 110 && value < (sum / area) * 0.75) marks[y * width + x] = 1;
    }
  }
  return marks;
}

/** The marks grown along the line and a little down, so the letters of a label make one group. */
function dilate(marks: Uint8Array, width: number, height: number): Uint8Array {
  const grown = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!marks[y * width + x]) continue;
      for (let dy = -JOIN_DOWN; dy <= JOIN_DOWN; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= height) continue;
        for (let dx = -JOIN_ACROSS; dx <= JOIN_ACROSS; dx++) {
          const xx = x + dx;
          if (xx >= 0 && xx < width) grown[yy * width + xx] = 1;
        }
      }
    }
  }
  return grown;
}

/** Each group of touching marks: its bounding box and how many pixels it has. */
function boxes(marks: Uint8Array, width: number, height: number) {
  const seen = new Uint8Array(width * height);
  const found: { left: number; top: number; right: number; bottom: number; pixels: number }[] = [];
  const stack: number[] = [];
  for (let start = 0; start < marks.length; start++) {
    if (!marks[start] || seen[start]) continue;
    const box = { left: width, top: height, right: 0, bottom: 0, pixels: 0 };
    seen[start] = 1;
    stack.push(start);
    while (stack.length > 0) {
      const at = stack.pop() ?? 0;
      const x = at % width;
      const y = (at - x) / width;
      box.pixels++;
      box.left = Math.min(box.left, x);
      box.right = Math.max(box.right, x);
      box.top = Math.min(box.top, y);
      box.bottom = Math.max(box.bottom, y);
      for (const next of [at - 1, at + 1, at - width, at + width]) {
        if (next < 0 || next >= marks.length) continue;
        if ((next === at - 1 && x === 0) || (next === at + 1 && x === width - 1)) continue;
        if (marks[next] && !seen[next]) {
          seen[next] = 1;
          stack.push(next);
        }
      }
    }
    found.push(box);
  }
  return found;
}
