// Card files through the real gateway and every process: the web app's calls (media.createUpload, a PUT of
// the bytes straight to the store, media.finishUpload), the same-origin /media/<id>/<name> that serves a
// file only to those cards lets see it, the storage quota of billing's plans, and the pages' CSP that lets
// them send files to the store and nowhere else.
import { silentWav } from '@engram/testkit/media-files';
import { signUpThroughGateway, startTestStack, type TestStack } from '@engram/testkit/stack';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusal, webTrpcClient } from '../support/trpc-client.ts';

let stack: TestStack;

beforeAll(async () => {
  // A stack of its own: billing gives the free plan this file's quota.
  // A free plan of 1 MB, so the quota is met with small files.
  stack = await startTestStack({ extraEnv: { MEDIA_QUOTA_MB_FREE: '1' } });
});
afterAll(() => stack?.stop());

const clientOf = (cookie: string) => webTrpcClient(stack.url, cookie);

const picture = (width: number, height: number, background = '#2a6') =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();

/** What the card editor does with a chosen file: a slot, the bytes to the store, and keeping it. */
async function addFile(cookie: string, name: string, contentType: string, bytes: Buffer) {
  const api = clientOf(cookie);
  const slot = await api.media.createUpload.mutate({ name, size: bytes.length, contentType, purpose: 'card' });
  const put = await fetch(slot.url, {
    method: 'PUT',
    headers: { ...slot.headers, origin: stack.url },
    body: bytes,
  });
  expect(put.status).toBe(200);
  return api.media.finishUpload.mutate({ uploadId: slot.uploadId });
}

const get = (path: string, cookie?: string, headers: Record<string, string> = {}) =>
  fetch(`${stack.url}${path}`, { headers: { ...(cookie && { cookie }), ...headers } });

describe('a card file through the gateway', () => {
  it('is kept, shown in a card from this site, and read back by its owner', async () => {
    const ann = await signUpThroughGateway(stack.url, 'media-owner');
    const image = await addFile(ann, 'mitochondrion.png', 'image/png', await picture(64, 48));
    expect(image).toMatchObject({
      kind: 'image',
      name: 'mitochondrion.png',
      path: `/media/${image.id}/mitochondrion.png`,
    });

    const answer = await get(image.path, ann);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('image/png');
    expect(answer.headers.get('cache-control')).toBe('private, no-store');
    const metadata = await sharp(Buffer.from(await answer.arrayBuffer())).metadata();
    expect({ width: metadata.width, height: metadata.height }).toEqual({ width: 64, height: 48 });

    const card = await clientOf(ann).cards.create.mutate({ front: `![cell](${image.path})`, back: 'Mitochondrion' });
    expect(card.front).toContain(image.path);
    expect((await clientOf(ann).media.list.query()).items[0]).toMatchObject({ id: image.id, cardCount: 1 });
  });

  it('is a 404 for anyone else: another learner, a visitor, a made-up id', async () => {
    const ann = await signUpThroughGateway(stack.url, 'media-private');
    const bob = await signUpThroughGateway(stack.url, 'media-other');
    const image = await addFile(ann, 'private.png', 'image/png', await picture(20, 20));
    expect((await get(image.path, bob)).status).toBe(404);
    expect((await get(image.path)).status).toBe(404);
    expect((await get('/media/00000000-0000-4000-8000-000000000000/x.png', ann)).status).toBe(404);
    expect((await get('/media/not-an-id/x.png', ann)).status).toBe(404);
  });

  it('serves a sound in ranges, so a player can seek', async () => {
    const ann = await signUpThroughGateway(stack.url, 'media-sound');
    const sound = await addFile(ann, 'bonjour.wav', 'audio/wav', silentWav(4000));
    const part = await get(sound.path, ann, { range: 'bytes=0-99' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 0-99/4044');
    expect((await part.arrayBuffer()).byteLength).toBe(100);
  });

  it('keeps serving when a reader goes away in the middle of a file', async () => {
    const ann = await signUpThroughGateway(stack.url, 'media-leaver');
    const sound = await addFile(ann, 'long.wav', 'audio/wav', silentWav(900_000));
    const leaving = new AbortController();
    const answer = await fetch(`${stack.url}${sound.path}`, { headers: { cookie: ann }, signal: leaving.signal });
    const reader = answer.body!.getReader();
    await reader.read();
    leaving.abort();
    expect((await get(sound.path, ann, { range: 'bytes=0-9' })).status).toBe(206);
    expect((await get('/')).status).toBe(200);
  });

  it("refuses a file past the plan's storage with the reason the app translates", async () => {
    const ann = await signUpThroughGateway(stack.url, 'media-quota');
    const error = await refusal(
      clientOf(ann).media.createUpload.mutate({
        name: 'big.png',
        size: 2 * 1024 * 1024 - 1,
        contentType: 'image/png',
        purpose: 'card',
      }),
    );
    expect(error.data?.code).toBe('PRECONDITION_FAILED');
    expect((error.data as { reason?: string } | undefined)?.reason).toBe('MEDIA_QUOTA_REACHED');
    const storage = await clientOf(ann).media.list.query();
    expect({ used: storage.usedBytes, quota: storage.quotaBytes, plan: storage.plan }).toEqual({
      used: 0,
      quota: 1024 * 1024,
      plan: 'free',
    });
  });

  it("sends files to a store that takes this installation's credentials, never the pair once published", async () => {
    const ann = await signUpThroughGateway(stack.url, 'media-credentials');
    const bytes = silentWav(1000);
    const slot = await clientOf(ann).media.createUpload.mutate({
      name: 'a.wav',
      size: bytes.length,
      contentType: 'audio/wav',
      purpose: 'card',
    });
    const url = new URL(slot.url);
    const [keyId, ...scope] = (url.searchParams.get('X-Amz-Credential') ?? '').split('/');
    expect(keyId).toMatch(/^[A-Z0-9]{20}$/);
    // The same presigned request under the key id the stand-in once accepted from everyone.
    url.searchParams.set('X-Amz-Credential', ['engram-stand-in', ...scope].join('/'));
    const published = await fetch(url, { method: 'PUT', headers: slot.headers, body: bytes });
    expect(published.status).toBe(403);
    expect(await published.text()).toContain('<Code>InvalidAccessKeyId</Code>');
    const own = await fetch(slot.url, { method: 'PUT', headers: slot.headers, body: bytes });
    expect(own.status).toBe(200);
  });

  it("lets the pages send files to the store's origin and to no other", async () => {
    const csp = (await get('/')).headers.get('content-security-policy') ?? '';
    const connect = csp.split('; ').find((directive) => directive.startsWith('connect-src')) ?? '';
    const ann = await signUpThroughGateway(stack.url, 'media-csp');
    const slot = await clientOf(ann).media.createUpload.mutate({
      name: 'a.png',
      size: 10,
      contentType: 'image/png',
      purpose: 'card',
    });
    expect(connect).toBe(`connect-src 'self' ${new URL(slot.url).origin.replace('127.0.0.1', 'localhost')}`);
  });
});
