// Files a learner might add to a card: a WAV sound every Chromium plays, of any length, made in the test;
// and small real files in the containers learners bring, sounds and videos, made once with FFmpeg and kept in
// packages/testkit/media (its README says how each was made).
import { readFileSync } from 'node:fs';

/** The sounds and videos in packages/testkit/media. */
export type RecordedFile =
  | 'tone.mp3'
  | 'tone.ogg'
  | 'tone.opus'
  | 'tone.m4a'
  | 'tone.webm'
  | 'tone.flac'
  | 'clip.mp4'
  | 'clip.webm'
  | 'clip-as-m4a.m4a'
  | 'silent-clip.mp4';

/** The bytes of a file in packages/testkit/media. */
export const recordedFile = (name: RecordedFile): Buffer => readFileSync(new URL(`../media/${name}`, import.meta.url));

/** `samples` bytes of 8 kHz, 8-bit mono silence as a WAV file (44 bytes of header before them). */
export function silentWav(samples = 8000): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + samples, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(8000, 28);
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  header.write('data', 36);
  header.writeUInt32LE(samples, 40);
  return Buffer.concat([header, Buffer.alloc(samples, 128)]);
}
