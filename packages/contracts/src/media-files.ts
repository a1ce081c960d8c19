// What a card file is, spelled once for every place that reads card text (the cards service, the web app's
// renderer and offline store, the Anki package): its types and kinds, whether it is a sound (by its name's
// extension, which cards gives every kept file for its type), and its address in a card's Markdown,
// `/media/<id>/<name>`. No zod here: the web app's renderer and offline store load it on first visits.
import { UUID_PATTERN } from './ids.ts';

export const MEDIA_KINDS = ['image', 'audio'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

/** The types a card's file may have, by kind, with the extensions a browser may report for them. */
export const MEDIA_TYPES: Record<string, { kind: MediaKind; extensions: readonly string[] }> = {
  'image/png': { kind: 'image', extensions: ['.png'] },
  'image/jpeg': { kind: 'image', extensions: ['.jpg', '.jpeg'] },
  'image/webp': { kind: 'image', extensions: ['.webp'] },
  'image/gif': { kind: 'image', extensions: ['.gif'] },
  // Drawn into a PNG when it is kept: no script or outside reference of an SVG survives.
  'image/svg+xml': { kind: 'image', extensions: ['.svg'] },
  'audio/mpeg': { kind: 'audio', extensions: ['.mp3'] },
  'audio/ogg': { kind: 'audio', extensions: ['.ogg', '.oga', '.opus'] },
  'audio/mp4': { kind: 'audio', extensions: ['.m4a', '.mp4'] },
  'audio/x-m4a': { kind: 'audio', extensions: ['.m4a'] },
  'audio/wav': { kind: 'audio', extensions: ['.wav'] },
  'audio/x-wav': { kind: 'audio', extensions: ['.wav'] },
  'audio/wave': { kind: 'audio', extensions: ['.wav'] },
  // A WebM (or an MP4) is a sound only when it holds no video: cards reads its tracks when it is kept.
  'audio/webm': { kind: 'audio', extensions: ['.weba', '.webm'] },
  'audio/flac': { kind: 'audio', extensions: ['.flac'] },
  'audio/x-flac': { kind: 'audio', extensions: ['.flac'] },
};

/** The extensions a sound's name may end in (lower case, with the dot): every audio type's. */
export const SOUND_EXTENSIONS: readonly string[] = [
  ...new Set(
    Object.values(MEDIA_TYPES)
      .filter(({ kind }) => kind === 'audio')
      .flatMap(({ extensions }) => extensions),
  ),
];

const SOUND_NAME = new RegExp(`\\.(?:${SOUND_EXTENSIONS.map((extension) => extension.slice(1)).join('|')})$`, 'i');

/** Whether a file of this name plays as a sound (by its extension); any other card file shows as a picture. */
export const isSoundName = (name: string): boolean => SOUND_NAME.test(name);

/** The start of a card file's address, for patterns that find one: `/media/<id>/`. */
export const MEDIA_ADDRESS_START = `/media/${UUID_PATTERN}/`;

const MEDIA_PATH = new RegExp(`^/media/(${UUID_PATTERN})/([^/?#]+)$`, 'i');

/** The id (lower case) and the name (as written, URL-encoded) of a file's address, or undefined if it is not one. */
export function parseMediaPath(path: string): { id: string; name: string } | undefined {
  const match = MEDIA_PATH.exec(path);
  return match ? { id: (match[1] ?? '').toLowerCase(), name: match[2] ?? '' } : undefined;
}

// Compiled once: these read every card the cards service writes and every card a device keeps offline. (match and
// matchAll start a global pattern afresh on each call.)
const MEDIA_ADDRESSES = new RegExp(`${MEDIA_ADDRESS_START}[^\\s)"'<>]+`, 'gi');
const MEDIA_IDS = new RegExp(`/media/(${UUID_PATTERN})(?=[/)\\s"'?#]|$)`, 'gi');

/** Every file address in a text (a card's Markdown or HTML), as written. */
export const mediaAddressesIn = (text: string): string[] => text.match(MEDIA_ADDRESSES) ?? [];

/** Every file id a card's text points at (`/media/<id>/…`), once each. */
export function mediaIdsIn(text: string): string[] {
  const ids = new Set<string>();
  for (const match of text.matchAll(MEDIA_IDS)) {
    ids.add((match[1] ?? '').toLowerCase());
  }
  return [...ids];
}
