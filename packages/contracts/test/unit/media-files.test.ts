// What a card file is, read the same way by the cards service, the web app and the Anki package: a sound by
// its name's extension (every extension cards gives a kept sound), a picture otherwise; its address in a card
// is /media/<id>/<name>.
import { describe, expect, it } from 'vitest';
import { isSoundName, MEDIA_TYPES, mediaAddressesIn, mediaIdsIn, parseMediaPath } from '../../src/media.ts';

const id = '0b5d6c1e-8f47-4a36-9d7c-6a8f0e2b1c3d';

describe('a card file', () => {
  it('is a sound when its name ends in any audio type’s extension, in either case', () => {
    const audio = Object.values(MEDIA_TYPES).filter(({ kind }) => kind === 'audio');
    for (const extension of audio.flatMap(({ extensions }) => extensions)) {
      expect(isSoundName(`voice${extension}`)).toBe(true);
      expect(isSoundName(`VOICE${extension.toUpperCase()}`)).toBe(true);
    }
    expect(['voice.flac', 'voice.webm', 'voice.m4a'].every(isSoundName)).toBe(true);
  });

  it('is a picture otherwise', () => {
    expect(['cell.png', 'cell.svg', 'mp3', 'voice.mp3.png', 'voice.mp3x'].some(isSoundName)).toBe(false);
  });

  it('has an address of its id and its name, which nothing else is taken for', () => {
    expect(parseMediaPath(`/media/${id.toUpperCase()}/bonjour%20monde.mp3`)).toEqual({
      id,
      name: 'bonjour%20monde.mp3',
    });
    expect(parseMediaPath(`/media/${id}/a/b.png`)).toBeUndefined();
    expect(parseMediaPath(`/media/${id}/a.png?x=1`)).toBeUndefined();
    expect(parseMediaPath('/media/not-an-id/a.png')).toBeUndefined();
    expect(parseMediaPath(`https://example.org/media/${id}/a.png`)).toBeUndefined();
  });

  it('is found in a card’s text by its address, once per id', () => {
    const text = `![a](/media/${id}/a.png) and <img src="/media/${id}/b.mp3"> and /media/x/y.png`;
    expect(mediaAddressesIn(text)).toEqual([`/media/${id}/a.png`, `/media/${id}/b.mp3`]);
    expect(mediaIdsIn(text)).toEqual([id]);
    // The patterns are compiled once: a second text is read from its start all the same.
    expect(mediaAddressesIn(text)).toHaveLength(2);
    expect(mediaIdsIn(`/media/${id}/c.png`)).toEqual([id]);
  });
});
