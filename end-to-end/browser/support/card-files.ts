// A card's picture, added through the API as the card editor adds a chosen file: a slot, the bytes straight to the
// object store, and keeping it; the card's Markdown then names the path answered.
import sharp from 'sharp';
import { expect } from 'vitest';
import { trpcClient } from '../../support/trpc-client.ts';

/** A small green PNG of 40 × 30 pixels. */
export const picture = () =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: '#2a6' } })
    .png()
    .toBuffer();

/** Adds `bytes` as a card file of the learner with `cookie`; answers its path (/media/<id>/<name>). */
export async function addCardFile(
  url: string,
  cookie: string,
  name: string,
  contentType: string,
  bytes: Buffer,
): Promise<string> {
  const api = trpcClient(url, cookie);
  const slot = await api.mutate('media.createUpload', { name, size: bytes.length, contentType, purpose: 'card' });
  const put = await fetch(slot.url, { method: 'PUT', headers: { ...slot.headers, origin: url }, body: bytes });
  expect(put.status).toBe(200);
  return (await api.mutate('media.finishUpload', { uploadId: slot.uploadId })).path;
}
