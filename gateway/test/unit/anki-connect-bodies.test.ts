// AnkiConnect requests and replies that carry files: large files are decoded from their base64 as the body is read
// and set beside it, and a reply's files written in base64 as it is sent; bodies over a megabyte are read and
// written by a worker thread, so the gateway's event loop never parses tens of megabytes, with the same outcome.
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import {
  closeAnkiConnectBodies,
  IN_LINE_MAX_BYTES,
  readAnkiConnectBody,
  writeAnkiConnectReply,
} from '../../src/http/anki-connect-bodies.ts';
import { FILE_MARK, INLINE_FILE_MAX_BYTES, packRead, readBody, unpackRead } from '../../src/http/anki-connect-media.ts';

afterAll(() => closeAnkiConnectBodies());

const body = (request: unknown) => Buffer.from(JSON.stringify(request));

describe('an AnkiConnect body', () => {
  it('keeps small files and files of no kind Engram keeps in the call, and takes out the large ones, decoded', () => {
    const screenshot = randomBytes(INLINE_FILE_MAX_BYTES);
    const sound = randomBytes(100);
    const read = readBody(
      body({
        action: 'multi',
        params: {
          actions: [
            {
              action: 'addNote',
              params: {
                note: {
                  fields: { Front: 'a' },
                  picture: [{ filename: 'shot.png', data: screenshot.toString('base64'), fields: ['Back'] }],
                  audio: { filename: 'word.mp3', data: sound.toString('base64') },
                },
              },
            },
            { action: 'storeMediaFile', params: { filename: 'notes.exe', data: screenshot.toString('base64') } },
          ],
        },
      }),
    );
    if ('invalid' in read) throw new Error('read as not JSON');
    expect(read.files).toHaveLength(1);
    expect(Buffer.from(read.files[0]!).equals(screenshot)).toBe(true);
    type Entry = { filename: string; data: unknown };
    type Actions = { params: { actions: { params: { note: { picture: Entry[]; audio: Entry } } & Entry }[] } };
    const [addNote, store] = (read.request as Actions).params.actions;
    expect(addNote!.params.note.picture[0]!.data).toEqual({ [FILE_MARK]: 0 });
    expect(addNote!.params.note.audio.data).toBe(sound.toString('base64'));
    expect(typeof store!.params.data).toBe('string');
  });

  it('says so when it is not JSON, and comes back whole from its packed form', () => {
    expect(readBody(Buffer.from('{"action":'))).toEqual({ invalid: true });
    const file = randomBytes(INLINE_FILE_MAX_BYTES + 3);
    const read = readBody(
      body({ action: 'storeMediaFile', params: { filename: 'a.jpg', data: file.toString('base64') } }),
    );
    const again = unpackRead(packRead(read));
    expect(again).toEqual({ request: (read as { request: unknown }).request, files: [file] });
  });

  it('over a megabyte, is read by the worker with the same outcome', async () => {
    const file = randomBytes(IN_LINE_MAX_BYTES * 2);
    const request = {
      action: 'storeMediaFile',
      version: 6,
      key: 'k',
      params: { filename: 'clip.mp3', data: file.toString('base64') },
    };
    const read = await readAnkiConnectBody(body(request));
    if ('invalid' in read) throw new Error('read as not JSON');
    expect(read.request).toEqual({ ...request, params: { filename: 'clip.mp3', data: { [FILE_MARK]: 0 } } });
    expect(Buffer.from(read.files[0]!).equals(file)).toBe(true);
    expect(await readAnkiConnectBody(Buffer.from('x'.repeat(IN_LINE_MAX_BYTES + 1)))).toEqual({ invalid: true });
  });
});

describe('an AnkiConnect reply', () => {
  it('carries its files in base64 where they stand, written in line or by the worker', async () => {
    for (const size of [10, IN_LINE_MAX_BYTES * 3]) {
      const file = randomBytes(size);
      // Read before writing: a large file moves to the worker, and is gone from here.
      const base64 = file.toString('base64');
      const written = await writeAnkiConnectReply([{ result: { [FILE_MARK]: 0 }, error: null }, 6], [file]);
      expect(JSON.parse(Buffer.from(written).toString())).toEqual([{ result: base64, error: null }, 6]);
    }
  });
});
