// A card file as the web app reads it.
import type { Media } from '@engram/proto/cards/v1/media';

export interface MediaJson {
  id: string;
  name: string;
  kind: 'image' | 'audio';
  contentType: string;
  size: number;
  /** The same-origin path a card's Markdown uses for it: /media/<id>/<name>. */
  path: string;
  createdAt: string;
  cardCount: number;
}

export const mediaJson = (media: Media): MediaJson => ({
  id: media.id,
  name: media.name,
  kind: media.kind === 'audio' ? 'audio' : 'image',
  contentType: media.contentType,
  size: media.size,
  path: media.path,
  createdAt: media.createdAt?.toISOString() ?? '',
  cardCount: media.cardCount,
});
