// How a card's Markdown shows a kept file: an image, or a sound (written as an image whose file is a sound;
// lib/markdown.ts draws the player).
import type { MediaJson } from '@engram/gateway/router';
import { m } from '../../lib/i18n';

/** The Markdown that shows a kept file in a card: an image, or a sound (the renderer draws its player). */
export function markdownOf(media: Pick<MediaJson, 'name' | 'path' | 'kind'>): string {
  const label = media.name.replace(/\.[^.]+$/, '').replace(/[[\]\\]/g, '');
  return `![${media.kind === 'audio' ? `${m.media_sound()}: ${label}` : label}](${media.path})`;
}
