// The object store through the real AWS SDK against the S3 stand-in: objects in and out (Buffers and
// streams), their type, ETag and metadata, a missing key as null, listing page by page, batch deletion,
// the files on disk, and what the stand-in refuses as S3 would (foreign credentials, the pair it once
// published, `..` keys, too big).
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { startS3StandIn } from '@engram/stand-ins/s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytesOf, CREDENTIALS, type StoreFixture, standInStore } from '../storage-fixture.js';

/** The pair the stand-in accepted from everyone before each installation had its own. */
const PUBLISHED = { accessKeyId: 'engram-stand-in', secretAccessKey: 'engram-stand-in-secret' };

let fixture: StoreFixture;
beforeAll(async () => {
  fixture = await standInStore();
});
afterAll(() => fixture?.dispose());

const md5 = (data: Buffer) => `"${createHash('md5').update(data).digest('hex')}"`;

/** A client of the stand-in with the given credentials, as any S3 client would be configured. */
function clientWith({ accessKeyId, secretAccessKey }: { accessKeyId: string; secretAccessKey: string }) {
  const endpoint = new URL(fixture.store.publicOrigin);
  endpoint.hostname = '127.0.0.1';
  return new S3Client({
    region: 'us-east-1',
    endpoint: endpoint.origin,
    forcePathStyle: true,
    credentials: { accessKeyId, secretAccessKey },
  });
}

describe('object store on the S3 stand-in', () => {
  it('puts, reads, describes and deletes an object, kept as a file with a sidecar', async () => {
    const { store, dir } = fixture;
    const body = Buffer.from('front: ¿qué tal?\nback: how are you?');
    const { etag } = await store.putObject('media/deck-1/note.txt', body, {
      contentType: 'text/plain; charset=utf-8',
      metadata: { 'uploaded-by': 'user-1' },
    });
    expect(etag).toBe(md5(body));
    expect(store.standIn).toBe(true);
    expect(store.bucket).toBe('engram-media');

    const head = await store.headObject('media/deck-1/note.txt');
    expect(head).toMatchObject({ contentType: 'text/plain; charset=utf-8', contentLength: body.length, etag });
    expect(head?.metadata).toEqual({ 'uploaded-by': 'user-1' });
    const got = await store.getObject('media/deck-1/note.txt');
    expect(got?.contentLength).toBe(body.length);
    expect(await bytesOf(got?.body as Readable)).toEqual(body);

    const path = join(dir, 'engram-media', 'media', 'deck-1', 'note.txt');
    expect(await readFile(path)).toEqual(body);
    expect(JSON.parse(await readFile(`${path}.s3meta.json`, 'utf8'))).toMatchObject({ etag });

    await store.deleteObject('media/deck-1/note.txt');
    expect(await store.getObject('media/deck-1/note.txt')).toBeNull();
    expect(await store.headObject('media/deck-1/note.txt')).toBeNull();
    await expect(stat(join(dir, 'engram-media', 'media'))).rejects.toThrow();
    await store.deleteObject('media/deck-1/note.txt');
  });

  it('streams a body of announced length in and out, and answers a missing key 404 NoSuchKey', async () => {
    const { store } = fixture;
    const part = Buffer.alloc(64 * 1024, 7);
    const stream = Readable.from(
      (function* () {
        for (let i = 0; i < 40; i += 1) yield part;
      })(),
    );
    await store.putObject('streamed.bin', stream, {
      contentType: 'application/octet-stream',
      contentLength: 40 * part.length,
    });
    const got = await store.getObject('streamed.bin');
    expect((await bytesOf(got?.body as Readable)).length).toBe(40 * part.length);

    expect(await store.getObject('never/there.png')).toBeNull();
    const client = clientWith(CREDENTIALS);
    const missing = await client
      .send(new GetObjectCommand({ Bucket: 'engram-media', Key: 'never/there.png' }))
      .catch((e) => e);
    expect(missing.name).toBe('NoSuchKey');
    expect(missing.$metadata.httpStatusCode).toBe(404);
    client.destroy();
  });

  it('lists the keys under a prefix in order, a page at a time', async () => {
    const { store } = fixture;
    const keys = ['list/b', 'list/a/2', 'list/a/10', 'list/ü', 'list/c.png', 'list/a/1', 'list/z'];
    for (const key of keys) await store.putObject(key, Buffer.from(key), { contentType: 'text/plain' });
    await store.putObject('listing-elsewhere', Buffer.from('x'), { contentType: 'text/plain' });

    const listed: string[] = [];
    for await (const key of store.listKeys('list/', { pageSize: 3 })) listed.push(key);
    expect(listed).toEqual(['list/a/1', 'list/a/10', 'list/a/2', 'list/b', 'list/c.png', 'list/z', 'list/ü']);

    const client = clientWith(CREDENTIALS);
    const first = await client.send(new ListObjectsV2Command({ Bucket: 'engram-media', Prefix: 'list/', MaxKeys: 3 }));
    expect(first.Contents?.map((object) => object.Key)).toEqual(['list/a/1', 'list/a/10', 'list/a/2']);
    expect(first.IsTruncated).toBe(true);
    expect(first.Contents?.[0]).toMatchObject({ Size: 8, ETag: md5(Buffer.from('list/a/1')) });
    const second = await client.send(
      new ListObjectsV2Command({
        Bucket: 'engram-media',
        Prefix: 'list/',
        MaxKeys: 3,
        ContinuationToken: first.NextContinuationToken,
      }),
    );
    expect(second.Contents?.map((object) => object.Key)).toEqual(['list/b', 'list/c.png', 'list/z']);
    client.destroy();

    await store.deleteObjects([...keys, 'list/never-there']);
    const left: string[] = [];
    for await (const key of store.listKeys('list')) left.push(key);
    expect(left).toEqual(['listing-elsewhere']);
  });

  it("takes the installation's own credentials, and refuses the pair it once published", async () => {
    const put = (key: string) => new PutObjectCommand({ Bucket: 'engram-media', Key: key, Body: 'mine' });
    const installation = clientWith(CREDENTIALS);
    await installation.send(put('credentials/own.txt'));
    const published = clientWith(PUBLISHED);
    const refused = await published.send(put('credentials/published.txt')).catch((e) => e);
    expect([refused.name, refused.$metadata.httpStatusCode]).toEqual(['InvalidAccessKeyId', 403]);
    const read = await published
      .send(new GetObjectCommand({ Bucket: 'engram-media', Key: 'credentials/own.txt' }))
      .catch((e) => e);
    expect([read.name, read.$metadata.httpStatusCode]).toEqual(['InvalidAccessKeyId', 403]);
    expect(await fixture.store.headObject('credentials/published.txt')).toBeNull();
    installation.destroy();
    published.destroy();
    // Nor can a stand-in be started with it.
    await expect(
      startS3StandIn({ dir: fixture.dir, port: 0, nodeEnv: 'development', credentials: PUBLISHED }),
    ).rejects.toThrow(/credentials made for this installation/);
  });

  it('refuses keys that would leave the bucket’s folder', async () => {
    const { store, dir } = fixture;
    for (const key of ['../escape.txt', 'a/../../escape.txt', '/etc/passwd', 'a//b']) {
      const error = await store.putObject(key, Buffer.from('x'), { contentType: 'text/plain' }).catch((e) => e);
      expect(error.name, key).toBe('InvalidArgument');
      expect(error.$metadata.httpStatusCode, key).toBe(400);
    }
    await expect(stat(join(dir, 'escape.txt'))).rejects.toThrow();
    await expect(stat(join(dir, '..', 'escape.txt'))).rejects.toThrow();
  });

  it('refuses other credentials as S3 does', async () => {
    const wrongSecret = clientWith({ ...CREDENTIALS, secretAccessKey: 'not-the-secret' });
    const put = new PutObjectCommand({ Bucket: 'engram-media', Key: 'x', Body: 'x' });
    const refused = await wrongSecret.send(put).catch((e) => e);
    expect([refused.name, refused.$metadata.httpStatusCode]).toEqual(['SignatureDoesNotMatch', 403]);
    const otherKey = clientWith({ ...CREDENTIALS, accessKeyId: 'AKIAOTHER' });
    const unknown = await otherKey.send(put).catch((e) => e);
    expect([unknown.name, unknown.$metadata.httpStatusCode]).toEqual(['InvalidAccessKeyId', 403]);
    wrongSecret.destroy();
    otherKey.destroy();
    const anonymous = await fetch(`${fixture.store.publicOrigin}/engram-media/x`);
    expect(anonymous.status).toBe(403);
    expect(await anonymous.text()).toContain('<Code>AccessDenied</Code>');
    const garbled = await fetch(`${fixture.store.publicOrigin}/engram-media/x?X-Amz-Signature=%E0%A4%A`);
    expect(garbled.status).toBe(400);
    expect(await garbled.text()).toContain('<Code>InvalidURI</Code>');
  });

  it('refuses an object larger than its limit with EntityTooLarge, keeping nothing', async () => {
    const small = await standInStore({ MEDIA_STANDIN_MAX_OBJECT_BYTES: '1024' });
    try {
      const error = await small.store
        .putObject('big.bin', Buffer.alloc(2048), { contentType: 'application/octet-stream' })
        .catch((e) => e);
      expect([error.name, error.$metadata.httpStatusCode]).toEqual(['EntityTooLarge', 400]);
      expect(await small.store.headObject('big.bin')).toBeNull();
      const upload = await small.store.presignPut('big.bin', {
        contentType: 'application/octet-stream',
        contentLength: 4096,
        expiresInSeconds: 60,
      });
      const response = await fetch(upload.url, { method: 'PUT', headers: upload.headers, body: Buffer.alloc(4096) });
      expect(response.status).toBe(400);
      expect(await response.text()).toContain('<Code>EntityTooLarge</Code>');
      // A body large enough for the SDK to ask first (Expect: 100-continue) is refused before it is sent.
      const asked = await small.store
        .putObject('bigger.bin', Readable.from([Buffer.alloc(3 * 1024 * 1024)]), {
          contentType: 'application/octet-stream',
          contentLength: 3 * 1024 * 1024,
        })
        .catch((e) => e);
      expect([asked.name, asked.$metadata.httpStatusCode]).toEqual(['EntityTooLarge', 400]);
    } finally {
      await small.dispose();
    }
  });
});

describe('two replicas on one machine', () => {
  it('share the stand-in the first one started: what one stores, the other reads', async () => {
    const first = await standInStore({ MEDIA_STANDIN_PORT: '0' });
    const port = Number(new URL(first.store.publicOrigin).port);
    const second = await standInStore({ MEDIA_STANDIN_PORT: String(port) });
    try {
      expect(second.store.standIn).toBe(true);
      await first.store.putObject('shared/a.txt', Buffer.from('from the first'), { contentType: 'text/plain' });
      const read = await second.store.getObject('shared/a.txt');
      expect((await bytesOf(read!.body)).toString()).toBe('from the first');
    } finally {
      await second.dispose();
      await first.dispose();
    }
  });
});
