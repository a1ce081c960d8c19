// Images and sounds in cards, as a learner adds them: a file goes to the store with a presigned PUT (the
// real S3 SDK and fetch against the S3 stand-in), cards keeps it only when its bytes are what it says,
// re-encoded without metadata and within bounds, counts it against the plan's quota, and shows it only to
// its owner and to learners whose cards show it.
import { randomUUID } from 'node:crypto';
import { type RecordedFile, recordedFile, silentWav } from '@engram/testkit/media-files';
import { status } from '@grpc/grpc-js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepObjects } from '../../src/media/sweeper.js';
import { type CardsCaller, type CardsHarness, startCardsHarness } from '../harness.js';

let cards: CardsHarness;

beforeAll(async () => {
  cards = await startCardsHarness();
}, 60_000);

afterAll(async () => {
  await cards?.stop();
});

const learner = (name: string) => `${name}-${randomUUID().slice(0, 8)}`;

/** Sends `bytes` as the browser would: a presigned PUT with the headers the upload names. */
async function upload(as: CardsCaller, name: string, contentType: string, bytes: Buffer) {
  const slot = await as.createUpload({ name, size: bytes.length, contentType, purpose: 'card' });
  const response = await fetch(slot.url, { method: 'PUT', headers: slot.headers, body: bytes });
  expect(response.status).toBe(200);
  return slot.uploadId;
}

async function keep(as: CardsCaller, name: string, contentType: string, bytes: Buffer) {
  const { media } = await as.finishUpload({ uploadId: await upload(as, name, contentType, bytes) });
  return media!;
}

async function readKept(as: CardsCaller, id: string): Promise<Buffer> {
  const opened = await as.openMedia({ id });
  return Buffer.from(await (await fetch(opened.url)).arrayBuffer());
}

const photo = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#3a7' } })
    .jpeg()
    // A phone's photo carries where it was taken.
    .withExif({
      IFD0: { Make: 'PhoneCo', Copyright: 'Ann' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 0/1' },
    })
    .toBuffer();

async function refusal(call: Promise<unknown>) {
  const error = (await call.then(
    () => undefined,
    (caught: unknown) => caught,
  )) as { code: number; message: string; reason?: string } | undefined;
  expect(error, 'the call was refused').toBeDefined();
  return error!;
}

describe('adding an image to a card', () => {
  it('keeps a photo upright, within 2048 pixels and without its location or any other metadata', async () => {
    const ann = cards.as(learner('ann'));
    const media = await keep(ann, 'Holiday photo.JPG', 'image/jpeg', await photo(4000, 3000));
    expect(media).toMatchObject({ kind: 'image', contentType: 'image/jpeg', name: 'Holiday photo.jpg' });
    expect(media.path).toBe(`/media/${media.id}/Holiday%20photo.jpg`);
    const kept = await sharp(await readKept(ann, media.id)).metadata();
    expect({ width: kept.width, height: kept.height }).toEqual({ width: 2048, height: 1536 });
    expect(kept.exif).toBeUndefined();
    expect(kept.format).toBe('jpeg');
    expect(media.size).toBe((await readKept(ann, media.id)).length);
  });

  it('draws an SVG into a PNG, so none of its scripts survive', async () => {
    const ann = cards.as(learner('ann'));
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" onload="alert(1)"><script>alert(2)</script><rect width="40" height="20" fill="#c33"/></svg>',
    );
    const media = await keep(ann, 'diagram.svg', 'image/svg+xml', svg);
    expect(media).toMatchObject({ kind: 'image', contentType: 'image/png', name: 'diagram.png' });
    const kept = await readKept(ann, media.id);
    expect((await sharp(kept).metadata()).format).toBe('png');
    expect(kept.toString('latin1')).not.toContain('script');
  });

  it('keeps an animated GIF moving', async () => {
    const ann = cards.as(learner('ann'));
    const frame = (background: string) =>
      sharp({ create: { width: 40, height: 30, channels: 3, background } })
        .png()
        .toBuffer();
    const gif = await sharp([await frame('#f00'), await frame('#00f')], { join: { animated: true } })
      .gif()
      .toBuffer();
    const media = await keep(ann, 'blink.gif', 'image/gif', gif);
    expect(media).toMatchObject({ kind: 'image', contentType: 'image/gif' });
    expect((await sharp(await readKept(ann, media.id), { animated: true }).metadata()).pages).toBe(2);
  });

  it('refuses a file whose bytes are not the image it says, and keeps nothing', async () => {
    const ann = learner('ann');
    const as = cards.as(ann);
    const uploadId = await upload(as, 'cat.png', 'image/png', Buffer.from('<html><script>alert(1)</script></html>'));
    const error = await refusal(as.finishUpload({ uploadId }));
    expect(error.code).toBe(status.INVALID_ARGUMENT);
    expect(error.reason).toBe('MEDIA_NOT_WHAT_IT_SAYS');
    expect(error.message).toBe(
      'The file is not an image or a sound a card can hold (PNG, JPEG, WebP, GIF, SVG, MP3, OGG, M4A, WAV, WebM, FLAC).',
    );
    expect(await cards.db.mediaFile.count({ where: { ownerId: ann } })).toBe(0);
  });

  it('refuses a sound or a video sent as an image', async () => {
    const as = cards.as(learner('ann'));
    const error = await refusal(as.finishUpload({ uploadId: await upload(as, 'a.png', 'image/png', silentWav()) }));
    expect(error.code).toBe(status.INVALID_ARGUMENT);
    const video = await refusal(
      as.finishUpload({ uploadId: await upload(as, 'b.png', 'image/png', recordedFile('clip.mp4')) }),
    );
    expect(video.code).toBe(status.INVALID_ARGUMENT);
  });

  it('refuses a picture cut short, or a picture header with something else behind it', async () => {
    const ann = learner('ann');
    const as = cards.as(ann);
    const png = await sharp({ create: { width: 200, height: 200, channels: 3, background: '#a35' } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    const html = Buffer.from('<html><script>alert(1)</script></html>');
    for (const bytes of [png.subarray(0, png.length / 2), Buffer.concat([png.subarray(0, 33), html])]) {
      const error = await refusal(as.finishUpload({ uploadId: await upload(as, 'cut.png', 'image/png', bytes) }));
      expect(error.reason).toBe('MEDIA_NOT_WHAT_IT_SAYS');
    }
    expect(await cards.db.mediaFile.count({ where: { ownerId: ann } })).toBe(0);
  });

  it('refuses a type a card cannot hold, and a file over the size limit, before anything is sent', async () => {
    const as = cards.as(learner('ann'));
    const pdf = await refusal(
      as.createUpload({ name: 'a.pdf', size: 10, contentType: 'application/pdf', purpose: 'card' }),
    );
    expect(pdf.code).toBe(status.INVALID_ARGUMENT);
    expect(pdf.message).toContain(
      'A card holds images (PNG, JPEG, WebP, GIF, SVG) and sounds (MP3, OGG, M4A, WAV, WebM, FLAC).',
    );
    const large = await refusal(
      as.createUpload({ name: 'a.png', size: 11 * 1024 * 1024, contentType: 'image/png', purpose: 'card' }),
    );
    expect(large.message).toContain('An image may be at most 10 MB.');
  });

  it('keeps the same picture added twice once', async () => {
    const as = cards.as(learner('ann'));
    const bytes = await photo(300, 200);
    const first = await keep(as, 'a.jpg', 'image/jpeg', bytes);
    const second = await keep(as, 'again.jpg', 'image/jpeg', bytes);
    expect(second.id).toBe(first.id);
    expect((await as.listMedia({})).items).toHaveLength(1);
  });
});

describe('adding a sound to a card', () => {
  it('keeps a WAV as it came', async () => {
    const as = cards.as(learner('ann'));
    const media = await keep(as, 'bonjour.wav', 'audio/wav', silentWav());
    expect(media).toMatchObject({ kind: 'audio', contentType: 'audio/wav', name: 'bonjour.wav' });
    expect((await readKept(as, media.id)).equals(silentWav())).toBe(true);
  });

  it.each<[RecordedFile, string, string]>([
    ['tone.mp3', 'audio/mpeg', 'audio/mpeg'],
    ['tone.ogg', 'audio/ogg', 'audio/ogg'],
    ['tone.opus', 'audio/ogg', 'audio/ogg'],
    ['tone.m4a', 'audio/x-m4a', 'audio/mp4'],
    ['tone.webm', 'audio/webm', 'audio/webm'],
    ['tone.flac', 'audio/flac', 'audio/flac'],
  ])('keeps %s, a sound in the container learners bring, as it came', async (name, sentAs, keptAs) => {
    const as = cards.as(learner('ann'));
    const bytes = recordedFile(name);
    const media = await keep(as, name, sentAs, bytes);
    expect(media).toMatchObject({ kind: 'audio', contentType: keptAs, name });
    expect((await readKept(as, media.id)).equals(bytes)).toBe(true);
  });

  it.each<[RecordedFile, string]>([
    ['clip.mp4', 'audio/mp4'],
    ['clip-as-m4a.m4a', 'audio/x-m4a'],
    ['clip.webm', 'audio/webm'],
    ['silent-clip.mp4', 'audio/mp4'],
  ])('refuses %s, a video sent as a sound, and keeps nothing of it', async (name, sentAs) => {
    const ann = learner('ann');
    const as = cards.as(ann);
    const uploadId = await upload(as, name, sentAs, recordedFile(name));
    const { objectKey } = await cards.db.upload.findUniqueOrThrow({ where: { id: uploadId } });
    const error = await refusal(as.finishUpload({ uploadId }));
    expect(error.code).toBe(status.INVALID_ARGUMENT);
    expect(error.reason).toBe('MEDIA_IS_VIDEO');
    expect(error.message).toBe(
      'This file is a video, and a card keeps only sounds and images. Save its sound as an audio file (such as MP3 or M4A) and add that.',
    );
    expect(await cards.db.mediaFile.count({ where: { ownerId: ann } })).toBe(0);
    // Nothing is kept: neither the bytes sent nor the room they held.
    expect(await cards.store.headObject(objectKey)).toBeNull();
    expect(await cards.db.upload.count({ where: { ownerId: ann } })).toBe(0);
    expect((await refusal(as.finishUpload({ uploadId }))).code).toBe(status.NOT_FOUND);
  });
});

describe('the storage quota', () => {
  it("refuses a file that would take the learner past their plan's storage, naming both", async () => {
    const ann = learner('ann');
    const as = cards.as(ann);
    const first = await keep(as, 'a.jpg', 'image/jpeg', await photo(200, 200));
    cards.setQuota(ann, { plan: 'free', quotaBytes: first.size + 1_000 });
    const page = await as.listMedia({});
    expect({ used: page.usedBytes, quota: page.quotaBytes, plan: page.plan }).toEqual({
      used: first.size,
      quota: first.size + 1_000,
      plan: 'free',
    });
    const error = await refusal(
      as.createUpload({ name: 'b.jpg', size: 5_000, contentType: 'image/jpeg', purpose: 'card' }),
    );
    expect(error.code).toBe(status.FAILED_PRECONDITION);
    expect(error.reason).toBe('MEDIA_QUOTA_REACHED');
    expect(error.message).toMatch(
      /^This file needs 1 MB, and your plan keeps 1 MB of images and sounds \(1 MB used\)\./,
    );
  });
});

describe('the storage quota, with uploads at once', () => {
  /** A drawing of noise: a few hundred bytes of SVG, hundreds of kilobytes as the PNG it is kept as. */
  const drawing = (seed: number) =>
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200"><filter id="n"><feTurbulence baseFrequency="0.9" seed="${seed}"/></filter>` +
        '<rect width="200" height="200" filter="url(#n)"/></svg>',
    );

  it('lets uploads begun at once take no more room than the plan keeps', async () => {
    const ann = learner('ann');
    const as = cards.as(ann);
    cards.setQuota(ann, { plan: 'free', quotaBytes: 150_000 });
    const begun = await Promise.allSettled(
      [1, 2, 3, 4].map((n) =>
        as.createUpload({ name: `take-${n}.jpg`, size: 100_000, contentType: 'image/jpeg', purpose: 'card' }),
      ),
    );
    expect(begun.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    for (const outcome of begun) {
      if (outcome.status === 'rejected') expect(outcome.reason).toMatchObject({ reason: 'MEDIA_QUOTA_REACHED' });
    }
    expect(await cards.db.upload.count({ where: { ownerId: ann } })).toBe(1);
  });

  it('keeps no more than the plan keeps when uploads finish at once, and leaves nothing of those refused', async () => {
    // Drawings whose kept PNGs are far larger than the SVGs sent: each fits as it is sent, one fits as kept.
    const seeds = [1, 2, 3];
    const probe = cards.as(learner('probe'));
    const keptSizes: number[] = [];
    for (const seed of seeds) keptSizes.push((await keep(probe, 'probe.svg', 'image/svg+xml', drawing(seed))).size);
    const sentBytes = seeds.reduce((sum, seed) => sum + drawing(seed).length, 0);
    // The largest kept file, beside the others still on their way.
    const quotaBytes = Math.max(...keptSizes) + sentBytes;
    const [smallest = 0, next = 0] = [...keptSizes].sort((a, b) => a - b);
    expect(smallest + next, 'no two kept drawings fit together').toBeGreaterThan(quotaBytes);

    const ann = learner('ann');
    const as = cards.as(ann);
    cards.setQuota(ann, { plan: 'free', quotaBytes });
    const uploadIds: string[] = [];
    for (const seed of seeds) uploadIds.push(await upload(as, `noise-${seed}.svg`, 'image/svg+xml', drawing(seed)));
    const sent = await cards.db.upload.findMany({ where: { id: { in: uploadIds } } });
    const finished = await Promise.allSettled(uploadIds.map((uploadId) => as.finishUpload({ uploadId })));

    expect(finished.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    for (const outcome of finished) {
      if (outcome.status === 'rejected') expect(outcome.reason).toMatchObject({ reason: 'MEDIA_QUOTA_REACHED' });
    }
    const page = await as.listMedia({});
    expect(page.items).toHaveLength(1);
    expect(page.usedBytes).toBeLessThanOrEqual(quotaBytes);
    // The refused uploads are gone, their bytes too: only the kept file is in the store.
    expect(await cards.db.upload.count({ where: { ownerId: ann, mediaId: null } })).toBe(0);
    for (const { objectKey } of sent) expect(await cards.store.headObject(objectKey)).toBeNull();
    const kept = await cards.db.mediaFile.findMany({ where: { ownerId: ann } });
    expect(kept).toHaveLength(1);
    expect(await cards.store.headObject(kept[0]!.objectKey)).not.toBeNull();
  });
});

describe('who sees a file', () => {
  it('is its owner, and nobody else, even with its real id written into a card of theirs', async () => {
    const ann = cards.as(learner('ann'));
    const bob = cards.as(learner('bob'));
    const media = await keep(ann, 'secret.jpg', 'image/jpeg', await photo(100, 100));
    await bob.createCard({ front: `![](${media.path})`, back: 'mine now?' });
    expect((await refusal(bob.openMedia({ id: media.id }))).code).toBe(status.NOT_FOUND);
    expect((await refusal(bob.openMedia({ id: randomUUID() }))).code).toBe(status.NOT_FOUND);
    expect((await refusal(bob.openMedia({ id: 'not-an-id' }))).code).toBe(status.NOT_FOUND);
    expect((await refusal(bob.deleteMedia({ id: media.id }))).code).toBe(status.NOT_FOUND);
    expect((await readKept(ann, media.id)).length).toBe(media.size);
  });
});

describe('deleting a file', () => {
  it('waits until no card shows it, then removes it and its bytes', async () => {
    const as = cards.as(learner('ann'));
    const media = await keep(as, 'cell.jpg', 'image/jpeg', await photo(100, 100));
    const { card } = await as.createCard({ front: `What is this? ![cell](${media.path})`, back: 'A cell' });
    expect((await as.listMedia({})).items[0]?.cardCount).toBe(1);
    const inUse = await refusal(as.deleteMedia({ id: media.id }));
    expect(inUse.code).toBe(status.FAILED_PRECONDITION);
    expect(inUse.reason).toBe('MEDIA_IN_USE');
    expect(inUse.message).toBe('A card shows this file. Remove it from them first.');

    await as.updateCard({ id: card!.id, fields: ['front'], front: 'What is a cell?' });
    await as.deleteMedia({ id: media.id });
    expect((await refusal(as.openMedia({ id: media.id }))).code).toBe(status.NOT_FOUND);
    const kept = await cards.db.mediaFile.findUnique({ where: { id: media.id } });
    expect(kept).toBeNull();
  });
});

describe('uploads left behind', () => {
  it('are removed from the store once they expire', async () => {
    const ann = learner('ann');
    const as = cards.as(ann);
    const uploadId = await upload(as, 'never-kept.jpg', 'image/jpeg', await photo(50, 50));
    const row = await cards.db.upload.findUniqueOrThrow({ where: { id: uploadId } });
    expect(await cards.store.headObject(row.objectKey)).not.toBeNull();
    await sweepObjects(cards.db, cards.store, new Date(row.expiresAt.getTime() + 1));
    expect(await cards.store.headObject(row.objectKey)).toBeNull();
    expect(await cards.db.upload.findUnique({ where: { id: uploadId } })).toBeNull();
  });
});
