// The type a chosen file is sent as: the browser's word when a card holds that type, else the one the
// contracts give its extension. A browser calls every .mp4 and .webm a video; sent as a sound, cards reads
// whether it is one (and refuses a video as such).
import { extensionOf, MEDIA_TYPES } from '@engram/contracts/media';

export function typeToSend(file: { name: string; type: string }): string {
  if (file.type && Object.hasOwn(MEDIA_TYPES, file.type)) return file.type;
  const extension = extensionOf(file.name);
  const known = Object.entries(MEDIA_TYPES).find(([, type]) => type.extensions.includes(extension));
  return known?.[0] ?? (file.type || 'application/octet-stream');
}
