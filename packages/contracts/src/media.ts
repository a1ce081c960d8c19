// Media in cards and the files learners bring (docs/product.md#media-in-cards): which files a card may hold,
// their limits, how a card's Markdown points at one, and the upload request every side checks the same way.
import { MAX_IMPORT_BYTES } from './collection-limits.ts';
import { z } from './zod.ts';

export {
  isSoundName,
  MEDIA_KINDS,
  MEDIA_TYPES,
  type MediaKind,
  mediaAddressesIn,
  mediaIdsIn,
  parseMediaPath,
  SOUND_EXTENSIONS,
} from './media-files.ts';

import { MEDIA_TYPES, type MediaKind } from './media-files.ts';

/** The largest collection file an import takes (collection-limits). */
export { MAX_IMPORT_BYTES };

/** What a file is for: a card's image or sound, or a collection to import. */
export const UPLOAD_PURPOSES = ['card', 'import'] as const;

/** The formats a card holds, as the messages name them. */
export const IMAGE_FORMATS = 'PNG, JPEG, WebP, GIF, SVG';
export const SOUND_FORMATS = 'MP3, OGG, M4A, WAV, WebM, FLAC';

/** The largest image and sound a card may hold, as uploaded (an image is usually smaller once re-encoded). */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
export const MAX_AUDIO_BYTES = 20 * 1024 * 1024;
/** An image is scaled down to fit this many pixels on its longer side. */
export const IMAGE_MAX_DIMENSION = 2048;
/** A file's name as shown: at most this long, and without path separators or control characters. */
export const MEDIA_NAME_MAX_LENGTH = 200;

/** The formats an import reads. */
export const IMPORT_FORMATS = ['apkg', 'colpkg', 'csv', 'tsv'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** The extensions an import takes, and the format each means: a .txt is Quizlet's (or Anki's) text export. */
export const IMPORT_EXTENSIONS: Record<string, ImportFormat> = {
  apkg: 'apkg',
  colpkg: 'colpkg',
  csv: 'csv',
  tsv: 'tsv',
  txt: 'tsv',
};

/** What an import says of a file whose kind it does not take. */
export const IMPORT_KINDS_MESSAGE = 'Import an Anki package (.apkg, .colpkg) or a CSV, TSV or text file.';

const MB = 1024 * 1024;
const megabytes = (bytes: number) => `${Math.round(bytes / MB).toLocaleString('en')} MB`;

/** The reasons the media and import refusals carry to the web app (error data `reason`). */
export const MEDIA_REASONS = {
  unsupportedType: 'MEDIA_UNSUPPORTED_TYPE',
  tooLarge: 'MEDIA_TOO_LARGE',
  quotaReached: 'MEDIA_QUOTA_REACHED',
  notUploaded: 'MEDIA_NOT_UPLOADED',
  notWhatItSays: 'MEDIA_NOT_WHAT_IT_SAYS',
  /** A video (an MP4 or WebM with a video track) sent as a sound. */
  isVideo: 'MEDIA_IS_VIDEO',
  inUse: 'MEDIA_IN_USE',
  /** The learner's files waiting to be imported already take their plan's allowance (collection-limits). */
  importUploadsWaiting: 'IMPORT_UPLOADS_WAITING',
} as const;

/** A file name as a learner's system gave it, made safe to show and to put in a URL's last segment. */
export function safeMediaName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .normalize('NFC')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .replace(/[?#%"<>|*:]/g, '_')
    .trim();
  return (cleaned || 'file').slice(-MEDIA_NAME_MAX_LENGTH);
}

/** The lower-case extension of a name, with its dot ("" when it has none). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot).toLowerCase();
}

/** What kind of card file a type is, or undefined when a card cannot hold it. */
export const mediaKindOf = (contentType: string): MediaKind | undefined =>
  MEDIA_TYPES[contentType.toLowerCase().split(';')[0]?.trim() ?? '']?.kind;

/** media.createUpload: a file about to be sent to the store. */
export const createUploadInput = z
  .object({
    name: z.string().trim().min(1, 'Choose a file.').max(1_000, 'The file name is too long.'),
    size: z.number().int('The size must be a whole number of bytes.').min(1, 'The file is empty.'),
    contentType: z.string().trim().max(200, 'The file type is not valid.'),
    purpose: z.enum(UPLOAD_PURPOSES, 'The purpose must be card or import.'),
  })
  .superRefine((upload, issues) => {
    if (upload.purpose === 'card') {
      const kind = mediaKindOf(upload.contentType);
      if (!kind) {
        issues.addIssue({
          code: 'custom',
          path: ['contentType'],
          message: `A card holds images (${IMAGE_FORMATS}) and sounds (${SOUND_FORMATS}).`,
        });
        return;
      }
      const limit = kind === 'image' ? MAX_IMAGE_BYTES : MAX_AUDIO_BYTES;
      if (upload.size > limit) {
        issues.addIssue({
          code: 'custom',
          path: ['size'],
          message: `${kind === 'image' ? 'An image' : 'A sound'} may be at most ${megabytes(limit)}.`,
        });
      }
    } else {
      const extension = extensionOf(upload.name).slice(1);
      if (!Object.hasOwn(IMPORT_EXTENSIONS, extension)) {
        issues.addIssue({ code: 'custom', path: ['name'], message: IMPORT_KINDS_MESSAGE });
      }
      if (upload.size > MAX_IMPORT_BYTES) {
        issues.addIssue({ code: 'custom', path: ['size'], message: 'A file to import may be at most 2 GB.' });
      }
    }
  });
export type CreateUploadInput = z.infer<typeof createUploadInput>;

/** The path a card's Markdown uses for a file: same-origin, named for people, its id the part that matters. */
export const mediaPath = (id: string, name: string) => `/media/${id}/${encodeURIComponent(safeMediaName(name))}`;
