// Presigned URLs driven by a browser's own means (fetch) against the S3 stand-in: an upload with the
// headers the store hands out, then a download under a chosen name and a byte range; a URL whose
// signature, key, type or length was changed, or whose time ran out, refused 403 with S3's error code;
// and CORS as a browser on the app's origin meets it.
import { setTimeout as sleep } from 'node:timers/promises';
import { attachmentDisposition } from '@engram/kit/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ORIGIN, type StoreFixture, standInStore } from '../storage-fixture.js';

let fixture: StoreFixture;
beforeAll(async () => {
  fixture = await standInStore();
});
afterAll(() => fixture?.dispose());

const png = Buffer.from('\x89PNG\r\n\x1a\n fake image bytes', 'latin1');

async function s3ErrorOf(response: Response) {
  const xml = await response.text();
  return {
    status: response.status,
    code: /<Code>([^<]+)<\/Code>/.exec(xml)?.[1],
    message: /<Message>([^<]+)<\/Message>/.exec(xml)?.[1],
  };
}

const upload = (key: string, expiresInSeconds = 60) =>
  fixture.store.presignPut(key, { contentType: 'image/png', contentLength: png.length, expiresInSeconds });

describe('presigned URLs on the S3 stand-in', () => {
  it('takes a browser’s upload with the headers handed out, then serves it under a chosen name', async () => {
    const { url, method, headers } = await upload('media/deck-7/cat picture.png');
    expect(new URL(url).origin).toBe(fixture.store.publicOrigin);
    const put = await fetch(url, { method, headers: { ...headers, origin: APP_ORIGIN }, body: png });
    expect(put.status).toBe(200);
    expect(put.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    expect(put.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    expect(put.headers.get('access-control-expose-headers')).toContain('ETag');
    expect(put.headers.get('x-engram-stand-in')).toBe('s3');
    expect(await fixture.store.headObject('media/deck-7/cat picture.png')).toMatchObject({
      contentType: 'image/png',
      contentLength: png.length,
      etag: put.headers.get('etag'),
    });

    const name = 'Gato “Mimi” – één.png';
    const download = await fixture.store.presignGet('media/deck-7/cat picture.png', {
      expiresInSeconds: 60,
      downloadName: name,
    });
    const got = await fetch(download);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('image/png');
    expect(got.headers.get('content-disposition')).toBe(attachmentDisposition(name));
    expect(Buffer.from(await got.arrayBuffer())).toEqual(png);

    const ranged = await fetch(
      await fixture.store.presignGet('media/deck-7/cat picture.png', { expiresInSeconds: 60 }),
      {
        headers: { range: 'bytes=1-3' },
      },
    );
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 1-3/${png.length}`);
    expect(await ranged.text()).toBe('PNG');
  });

  it('refuses a URL whose signature, key, type or length differs from what was signed', async () => {
    const { url, headers } = await upload('media/tampered.png');
    const signature = new URL(url).searchParams.get('X-Amz-Signature') ?? '';
    const flipped = url.replace(signature, `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`);
    const cases: [string, RequestInit][] = [
      [flipped, { method: 'PUT', headers, body: png }],
      [url.replace('tampered.png', 'other.png'), { method: 'PUT', headers, body: png }],
      [url, { method: 'PUT', headers: { 'content-type': 'text/html' }, body: png }],
      [url, { method: 'PUT', headers, body: Buffer.concat([png, png]) }],
    ];
    for (const [target, init] of cases) {
      expect(await s3ErrorOf(await fetch(target, init))).toMatchObject({ status: 403, code: 'SignatureDoesNotMatch' });
    }
    expect(await fixture.store.headObject('media/tampered.png')).toBeNull();
    expect(await fixture.store.headObject('media/other.png')).toBeNull();
  });

  it('refuses a URL whose time ran out with "Request has expired"', async () => {
    const { url, headers } = await upload('media/late.png', 1);
    const download = await fixture.store.presignGet('media/late.png', { expiresInSeconds: 1 });
    await sleep(2_100);
    const late = { status: 403, code: 'AccessDenied', message: 'Request has expired' };
    expect(await s3ErrorOf(await fetch(url, { method: 'PUT', headers, body: png }))).toEqual(late);
    expect(await s3ErrorOf(await fetch(download))).toEqual(late);
  });

  it('answers the CORS preflight of the app’s origin, and no other', async () => {
    const preflight = (origin: string, method = 'PUT') =>
      fetch(`${fixture.store.publicOrigin}/engram-media/media/x.png`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'content-type' },
      });
    const allowed = await preflight(APP_ORIGIN);
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    expect(allowed.headers.get('access-control-allow-methods')).toBe('GET, PUT, HEAD');
    expect(allowed.headers.get('access-control-allow-headers')).toBe('content-type');
    expect(allowed.headers.get('x-engram-stand-in')).toBe('s3');
    expect(await s3ErrorOf(await preflight('https://evil.example'))).toMatchObject({
      status: 403,
      code: 'AccessForbidden',
    });
    expect((await preflight(APP_ORIGIN, 'DELETE')).status).toBe(403);
  });
});
