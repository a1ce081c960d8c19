// The AnkiConnect endpoint through the real gateway, identity and cards, driven by the call sequences of the
// tools learners use, each replayed request by request from its source (GPL-3.0 code read, none copied):
// - Yomitan (yomidevs/yomitan ext/js/comm/anki-connect.js @058cd30): version 2 (bare results), its API key on
//   every request; the settings page's version, deckNames, modelNames, modelFieldNames; a word added with its
//   sound and screenshot (storeMediaFile, addNote with duplicateScope deck-root as `deck` + checkChildren); the
//   duplicate badge (canAddNotes, then a multi of findNotes `"deck:X" "front:value"` without keys, notesInfo,
//   cardsInfo); "view note" (guiEditNote, then guiBrowse `nid:N` on "unsupported action"); suspending the new
//   note's cards (findCards nid:N, suspend);
// - Obsidian_to_Anki (ShootingKing-AM/Obsidian_to_Anki src/anki.ts, src/files-manager.ts @8544785): version 6,
//   no key, posting to 127.0.0.1:8765, so through Engram's relay (web/public/anki-connect-relay.mjs); modelNames,
//   modelFieldNames, then one multi of multis: createDeck, addNote, notesInfo, getTags, updateNoteFields,
//   deleteNotes, storeMediaFile by path; then changeDeck, removeTags, addTags. Replies must hold exactly
//   `result` and `error`;
// - AnkiconnectAndroid (KamWithK/AnkiconnectAndroid @79e27a3), the part of AnkiConnect Yomitan uses as that
//   app implements it: deckNamesAndIds, modelNamesAndIds, canAddNotesWithErrorDetail, addNote, updateNoteFields,
//   storeMediaFile, notesInfo, guiBrowse, multi.
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordedFile } from '@engram/testkit/media-files';
import { sharedTestStack } from '@engram/testkit/shared-stack';
import { signUpThroughGateway, type TestStack } from '@engram/testkit/stack';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authClient, type Json } from '../support/auth-client.js';

let stack: TestStack;
let endpoint: string;

beforeAll(async () => {
  stack = await sharedTestStack();
  endpoint = `${stack.url}/api/anki-connect`;
});

/** A learner with an API key, as they would paste it into their tool. */
async function learnerWithKey(name: string) {
  const cookie = await signUpThroughGateway(stack.url, name);
  const response = await authClient(stack).post('/api-key/create', { name: 'Yomitan' }, cookie);
  expect(response.status).toBe(200);
  return { cookie, key: ((await response.json()) as { key: string }).key };
}

/** One request as a tool sends it; the parsed answer. */
async function post(body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) {
  const response = await fetch(endpoint, { method: 'POST', headers, body: JSON.stringify(body) });
  expect(response.status).toBe(200);
  return (await response.json()) as Json;
}

/** Yomitan's `_invoke`: version 2, the key when one is set, and an error when the reply carries one. */
function yomitan(key: string) {
  return async (action: string, params: Record<string, unknown> = {}) => {
    const reply = await post({ action, params, version: 2, key });
    if (reply && typeof reply === 'object' && !Array.isArray(reply) && reply.error !== undefined) {
      throw Object.assign(new Error(`Anki error: ${reply.error}`), { apiError: reply.error });
    }
    return reply;
  };
}

const screenshot = () =>
  sharp({ create: { width: 32, height: 18, channels: 3, background: '#234' } })
    .jpeg()
    .toBuffer();

describe('the protocol', () => {
  it('answers an empty request with its version, and OPTIONS with CORS for extensions and private networks', async () => {
    const empty = await fetch(endpoint, { method: 'POST' });
    expect(await empty.text()).toBe('AnkiConnect v.6');
    const preflight = await fetch(endpoint, {
      method: 'OPTIONS',
      headers: {
        origin: 'chrome-extension://likgccmbimhjbgkjambclfkhldnlhbnn',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
        'access-control-request-private-network': 'true',
      },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-private-network')).toBe('true');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type');
  });

  it('answers by version: bare results to 4 and below, {result, error} from 5, errors always as {result, error}', async () => {
    const { key } = await learnerWithKey('protocol');
    expect(await post({ action: 'version', key })).toBe(6);
    expect(await post({ action: 'version', version: 4, key })).toBe(6);
    expect(await post({ action: 'version', version: 6, key })).toEqual({ result: 6, error: null });
    expect(await post({ action: 'bury', version: 2, key })).toEqual({ result: null, error: 'unsupported action' });
    expect(await post({ action: 'deckNames', version: 6 })).toEqual({
      result: null,
      error: 'valid api key must be provided',
    });
    expect(await post({ action: 'deckNames', version: 6, key: 'engram_wrong' })).toEqual({
      result: null,
      error: 'valid api key must be provided',
    });
    expect(await post({ action: 'requestPermission', version: 6, params: { origin: 'https://x.test' } })).toEqual({
      result: { permission: 'granted', requireApiKey: true, requireApikey: true, version: 6 },
      error: null,
    });
    expect(await post({ action: 'sync', version: 6, key })).toEqual({ result: null, error: null });
    // multi: each entry with its own version (4 by default) and, when it has one, its own key.
    expect(
      await post({
        action: 'multi',
        version: 6,
        key,
        params: {
          actions: [
            { action: 'version' },
            { action: 'version', version: 6 },
            { action: 'nope', version: 6 },
            { action: 'version', key: 'engram_wrong' },
          ],
        },
      }),
    ).toEqual({
      result: [
        6,
        { result: 6, error: null },
        { result: null, error: 'unsupported action' },
        { result: null, error: 'valid api key must be provided' },
      ],
      error: null,
    });
  });

  it('never acts through a browser session: a cookie without a key is refused, and a cross-site page is not blocked by origin alone', async () => {
    const { cookie, key } = await learnerWithKey('nocookie');
    const withCookie = await post(
      { action: 'deckNames', version: 6 },
      { 'content-type': 'text/plain', cookie, origin: 'https://evil.test' },
    );
    expect(withCookie).toEqual({ result: null, error: 'valid api key must be provided' });
    const fromExtension = await post(
      { action: 'deckNames', version: 6, key },
      { 'content-type': 'application/json', origin: 'moz-extension://0b3c2d1e-yomitan' },
    );
    expect(fromExtension).toEqual({ result: ['Default'], error: null });
  });
});

describe("Yomitan's calls", () => {
  it('sets up, adds a word with its sound and screenshot, flags it as a duplicate, views and suspends it', async () => {
    const { key } = await learnerWithKey('yomitan');
    const invoke = yomitan(key);
    await invoke('createDeck', { deck: 'Japanese::Mining' });

    // The settings page: the version check, then decks, note types and the chosen type's fields.
    expect(await invoke('version')).toBe(6);
    expect(await invoke('deckNames')).toEqual(['Default', 'Japanese::Mining']);
    expect(await invoke('modelNames')).toContain('Basic');
    expect(await invoke('modelFieldNames', { modelName: 'Basic' })).toEqual(['Front', 'Back']);

    // Adding: the sound and the screenshot first, then the note naming them.
    const audio = `yomitan_audio_${randomUUID().replaceAll('-', '')}.mp3`;
    const picture = 'yomitan_browser_screenshot_読む_2026-11-30-12-00-00.jpeg';
    expect(await invoke('storeMediaFile', { filename: audio, data: recordedFile('tone.mp3').toString('base64') })).toBe(
      audio,
    );
    expect(await invoke('storeMediaFile', { filename: picture, data: (await screenshot()).toString('base64') })).toBe(
      picture,
    );
    const note = {
      fields: {
        Front: '読む',
        Back: `<div><ol><li>to read</li><li>to guess</li></ol></div>[sound:${audio}]<img src="${picture}">`,
      },
      tags: ['yomitan'],
      deckName: 'Japanese::Mining',
      modelName: 'Basic',
      options: {
        allowDuplicate: false,
        duplicateScope: 'deck',
        duplicateScopeOptions: { deckName: 'Japanese', checkChildren: true, checkAllModels: false },
      },
    };
    expect(await invoke('canAddNotes', { notes: [note] })).toEqual([true]);
    const noteId = (await invoke('addNote', { note })) as number;
    expect(typeof noteId).toBe('number');

    // The badge: the word is now a duplicate, and its note is found as Yomitan asks for it (a multi of
    // findNotes whose entries carry neither version nor key), read with notesInfo and cardsInfo.
    expect(await invoke('canAddNotes', { notes: [note] })).toEqual([false]);
    const found = await invoke('multi', {
      actions: [{ action: 'findNotes', params: { query: '"deck:Japanese::Mining" "front:読む"' } }],
    });
    expect(found).toEqual([[noteId]]);
    const [info] = (await invoke('notesInfo', { notes: [noteId] })) as Json[];
    expect(info).toMatchObject({ noteId, modelName: 'Basic', tags: ['yomitan'] });
    expect(info.fields.Front).toEqual({ value: '読む', order: 0 });
    expect(info.fields.Back.value).toContain(`[sound:${audio}]`);
    expect(info.fields.Back.value).toContain(`<img src="${picture}"`);
    const cards = (await invoke('cardsInfo', { cards: info.cards })) as Json[];
    expect(cards).toEqual([expect.objectContaining({ cardId: info.cards[0], note: noteId, flags: 0 })]);

    // "View note": guiEditNote is not supported, so Yomitan browses the note instead.
    const view = await invoke('guiEditNote', { note: noteId }).catch((error: { apiError: string }) => error.apiError);
    expect(view).toBe('unsupported action');
    expect(await invoke('guiBrowse', { query: `nid:${noteId}` })).toEqual(info.cards);

    // Suspending new cards, as its "suspend new cards" option does.
    const cardIds = (await invoke('findCards', { query: `nid:${noteId}` })) as number[];
    expect(await invoke('suspend', { cards: cardIds })).toBe(true);
    expect(await invoke('areSuspended', { cards: cardIds })).toEqual([true]);
  });
});

describe('large files', () => {
  it('keeps a full-page screenshot larger than any call between services, sent inline as base64', async () => {
    const { key } = await learnerWithKey('bigshot');
    const invoke = yomitan(key);
    // Noise does not compress: about 4.3 MB of PNG, 5.7 MB as base64.
    const noise = randomBytes(1400 * 1000 * 3);
    const png = await sharp(noise, { raw: { width: 1400, height: 1000, channels: 3 } })
      .png()
      .toBuffer();
    expect(png.length).toBeGreaterThan(4 * 1024 * 1024);
    const name = 'yomitan_browser_screenshot_big.png';
    expect(await invoke('storeMediaFile', { filename: name, data: png.toString('base64') })).toBe(name);
    const noteId = await invoke('addNote', {
      note: { deckName: 'Default', modelName: 'Basic', fields: { Front: 'big', Back: `<img src="${name}">` } },
    });
    const [info] = (await invoke('notesInfo', { notes: [noteId] })) as Json[];
    expect(info.fields.Back.value).toContain(`<img src="${name}"`);
    expect(typeof (await invoke('retrieveMediaFile', { filename: name }))).toBe('string');
  });
});

describe("Obsidian_to_Anki's calls, through the relay on the learner's computer", () => {
  let relay: ReturnType<typeof spawn> | undefined;
  let relayUrl: string;
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'engram-obsidian-'));
  });
  afterAll(async () => {
    relay?.kill();
    await rm(folder, { recursive: true, force: true });
  });

  async function startRelay(key: string) {
    const script = new URL('../../web/public/anki-connect-relay.mjs', import.meta.url).pathname;
    relay = spawn(process.execPath, [script, '--url', endpoint, '--key', key, '--port', '0'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    relayUrl = await new Promise<string>((resolve, reject) => {
      relay?.stdout?.on('data', (chunk: Buffer) => {
        const started = /Relaying (http:\/\/\S+)/.exec(chunk.toString());
        if (started?.[1]) resolve(started[1]);
      });
      relay?.once('exit', (code) => reject(new Error(`the relay ended (${code})`)));
    });
  }

  /** Obsidian_to_Anki's `invoke`: version 6, no key, and a reply of exactly `result` and `error`. */
  async function invoke(action: string, params: Record<string, unknown> = {}) {
    const response = await fetch(relayUrl, {
      method: 'POST',
      headers: { origin: 'app://obsidian.md' },
      body: JSON.stringify({ action, version: 6, params }),
    });
    const reply = (await response.json()) as Json;
    expect(Object.getOwnPropertyNames(reply).sort()).toEqual(['error', 'result']);
    if (reply.error) throw new Error(reply.error);
    return reply.result;
  }
  const request = (action: string, params: Record<string, unknown> = {}) => ({ action, version: 6, params });
  const multi = (actions: unknown[]) => request('multi', { actions });
  const parse = (reply: Json) => {
    expect(Object.getOwnPropertyNames(reply).sort()).toEqual(['error', 'result']);
    if (reply.error) throw new Error(reply.error);
    return reply.result;
  };

  it('syncs a vault: decks, notes, edits, deletions, tags and a picture read from the vault', async () => {
    const { key } = await learnerWithKey('obsidian');
    await startRelay(key);
    const picturePath = join(folder, 'diagram.png');
    await writeFile(
      picturePath,
      await sharp({ create: { width: 9, height: 9, channels: 3, background: '#0a0' } })
        .png()
        .toBuffer(),
    );

    // Settings from scratch: the note types and each one's fields.
    const types = (await invoke('modelNames')) as string[];
    for (const type of types) expect(await invoke('modelFieldNames', { modelName: type })).toEqual(expect.any(Array));

    // A first sync of one file with two notes.
    const addNote = (front: string, back: string) =>
      request('addNote', {
        note: {
          deckName: 'Obsidian::Biology',
          modelName: 'Basic',
          fields: { Front: front, Back: back },
          options: { allowDuplicate: false, duplicateScope: 'deck' },
          tags: ['Obsidian_to_Anki'],
        },
      });
    const first = (await invoke('multi', {
      actions: [
        multi([
          request('createDeck', { deck: 'Obsidian::Biology' }),
          request('createDeck', { deck: 'Obsidian::Biology' }),
        ]),
        multi([
          multi([
            addNote('Mitochondria', 'The powerhouse <img src="diagram.png">'),
            addNote('Ribosome', 'Makes proteins'),
          ]),
        ]),
        multi([request('notesInfo', { notes: [] })]),
        request('getTags'),
        multi([multi([])]),
        multi([request('deleteNotes', { notes: [] })]),
        multi([request('storeMediaFile', { filename: 'diagram.png', path: picturePath })]),
      ],
    })) as Json[];
    const [, added, , tags, , , media] = first.slice(0);
    const noteIds = (parse(parse(added)[0]) as Json[]).map(parse) as number[];
    expect(noteIds).toEqual([expect.any(Number), expect.any(Number)]);
    expect(parse(tags)).toEqual(['Obsidian_to_Anki']);
    expect(parse(media)).toEqual([{ result: 'diagram.png', error: null }]);

    // A second sync: one note edited, the other deleted, then its cards moved and its tags replaced.
    const [mitochondria = 0, ribosome = 0] = noteIds;
    const second = (await invoke('multi', {
      actions: [
        multi([]),
        multi([multi([])]),
        multi([request('notesInfo', { notes: [mitochondria] })]),
        request('getTags'),
        multi([multi([request('updateNoteFields', { note: { id: mitochondria, fields: { Back: 'Makes ATP' } } })])]),
        multi([request('deleteNotes', { notes: [ribosome] })]),
        multi([]),
      ],
    })) as Json[];
    const [info] = parse(parse(second[2])[0]) as Json[];
    expect(info.fields.Front.value).toBe('Mitochondria');
    expect(info.fields.Back.value).toContain('<img src="diagram.png"');
    expect(parse(parse(second[4])[0])).toEqual([{ result: null, error: null }]);
    const after = (await invoke('multi', {
      actions: [
        multi([request('changeDeck', { cards: info.cards, deck: 'Obsidian::Cells' })]),
        multi([request('removeTags', { notes: [mitochondria], tags: 'Obsidian_to_Anki' })]),
        multi([request('addTags', { notes: [mitochondria], tags: 'cells Obsidian_to_Anki' })]),
      ],
    })) as Json[];
    expect(after.map(parse)).toEqual([
      [{ result: null, error: null }],
      [{ result: null, error: null }],
      [{ result: null, error: null }],
    ]);
    expect(await invoke('findNotes', { query: 'deck:Obsidian::Cells tag:cells' })).toEqual([mitochondria]);
    expect(await invoke('findNotes', { query: `nid:${ribosome}` })).toEqual([]);
    const [edited] = (await invoke('notesInfo', { notes: [mitochondria] })) as Json[];
    expect(edited.fields.Back.value).toBe('Makes ATP');
  });

  it('is served by Engram for learners to download, and says how to run it', async () => {
    const served = await fetch(`${stack.url}/anki-connect-relay.mjs`);
    expect(served.status).toBe(200);
    expect(await served.text()).toContain("Engram's AnkiConnect relay");
    const script = new URL('../../web/public/anki-connect-relay.mjs', import.meta.url).pathname;
    const help = spawn(process.execPath, [script, '--help']);
    let text = '';
    help.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    const code = await new Promise((resolve) => help.once('exit', resolve));
    expect(code).toBe(0);
    expect(text).toContain('--url <url>');
    expect(text).toContain('--key <key>');
  });

  it('refuses a request from a web page that is not an Anki tool', async () => {
    const response = await fetch(relayUrl, {
      method: 'POST',
      headers: { origin: 'https://evil.test' },
      body: JSON.stringify({ action: 'deleteNotes', version: 6, params: { notes: [1] } }),
    });
    expect(response.status).toBe(403);
  });
});

describe("AnkiconnectAndroid's calls (the part Yomitan uses)", () => {
  it('answers its decks and models with ids, checks, adds, updates and browses a note', async () => {
    const { key } = await learnerWithKey('android');
    const call = async (action: string, params: Record<string, unknown> = {}) =>
      post({ action, version: 6, params, key }).then((reply: Json) => {
        if (reply.error) throw new Error(reply.error);
        return reply.result;
      });
    expect(await call('deckNamesAndIds')).toEqual({ Default: 1 });
    expect(Object.keys(await call('modelNamesAndIds'))).toContain('Basic');
    const note = { deckName: 'Default', modelName: 'Basic', fields: { Front: 'hola', Back: 'hello' }, tags: [] };
    expect(await call('canAddNotesWithErrorDetail', { notes: [note] })).toEqual([{ canAdd: true }]);
    const noteId = await call('addNote', { note });
    expect(await call('canAddNotesWithErrorDetail', { notes: [note] })).toEqual([
      { canAdd: false, error: 'cannot create note because it is a duplicate' },
    ]);
    expect(
      await call('storeMediaFile', { filename: 'hola.ogg', data: recordedFile('tone.ogg').toString('base64') }),
    ).toBe('hola.ogg');
    expect(
      await call('updateNoteFields', { note: { id: noteId, fields: { Back: 'hello [sound:hola.ogg]' } } }),
    ).toBeNull();
    const [info] = await call('notesInfo', { notes: [noteId] });
    expect(info.fields.Back.value).toBe('hello [sound:hola.ogg]');
    expect(await call('guiBrowse', { query: `nid:${noteId}` })).toEqual(info.cards);
    expect(await call('multi', { actions: [{ action: 'findNotes', params: { query: 'hola' }, version: 6 }] })).toEqual([
      { result: [noteId], error: null },
    ]);
  });
});
