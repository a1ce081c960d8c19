// Whether an uploaded file is a sound a card can keep: its container, read from its bytes (file-type),
// must be one of the audio containers below, and reading it through (music-metadata, which walks the
// container's boxes, pages or elements) must find an audio stream and no video. An MP4 or WebM, the same
// containers whether they hold a film or a voice, is a sound only when none of its tracks is a video; one
// that holds a video is refused as such, whatever its brand says (an MP4 branded "M4A " may hold one).
import { IMAGE_FORMATS, MEDIA_REASONS, SOUND_FORMATS } from '@engram/contracts/media';
import { Invalid } from '@engram/kit/errors';
import { parseBuffer } from 'music-metadata';

export interface SoundType {
  /** The type it is kept and served as. */
  contentType: string;
  /** The extension of the kept file's name. */
  extension: string;
}

const MP4: SoundType = { contentType: 'audio/mp4', extension: '.m4a' };
const WEBM: SoundType = { contentType: 'audio/webm', extension: '.webm' };

/** The containers a sound may come in, by the type file-type reads from the bytes (its parameters aside, but for Opus). */
const SOUND_CONTAINERS: Record<string, SoundType> = {
  'audio/mpeg': { contentType: 'audio/mpeg', extension: '.mp3' },
  'audio/ogg': { contentType: 'audio/ogg', extension: '.ogg' },
  'audio/ogg; codecs=opus': { contentType: 'audio/ogg', extension: '.opus' },
  'audio/opus': { contentType: 'audio/ogg', extension: '.opus' },
  'audio/wav': { contentType: 'audio/wav', extension: '.wav' },
  'audio/vnd.wave': { contentType: 'audio/wav', extension: '.wav' },
  'audio/flac': { contentType: 'audio/flac', extension: '.flac' },
  'audio/x-flac': { contentType: 'audio/flac', extension: '.flac' },
  'audio/x-m4a': MP4,
  'audio/mp4': MP4,
  'video/mp4': MP4,
  'audio/webm': WEBM,
  'video/webm': WEBM,
};

/** The container type file-type read, as SOUND_CONTAINERS names it ("audio/ogg; codecs=opus" is Ogg). */
export const containerOf = (sniffedMime: string) => sniffedMime.split(';')[0]?.trim().toLowerCase() ?? '';

/** Whether file-type's answer is a container a sound may come in (then it must pass soundTypeOf). */
export const isSoundContainer = (sniffedMime: string) => Object.hasOwn(SOUND_CONTAINERS, containerOf(sniffedMime));

export const notWhatItSays = () =>
  new Invalid(
    `The file is not an image or a sound a card can hold (${IMAGE_FORMATS}, ${SOUND_FORMATS}).`,
    MEDIA_REASONS.notWhatItSays,
  );

export const isVideo = () =>
  new Invalid(
    'This file is a video, and a card keeps only sounds and images. Save its sound as an audio file (such as MP3 or M4A) and add that.',
    MEDIA_REASONS.isVideo,
  );

/**
 * What `bytes`, whose container file-type read as `sniffedMime`, are kept as; refused as a video when a
 * track is one, and as not what it says when no audio stream is found or the container cannot be read.
 */
export async function soundTypeOf(bytes: Buffer, sniffedMime: string): Promise<SoundType> {
  const type = SOUND_CONTAINERS[sniffedMime.toLowerCase()] ?? SOUND_CONTAINERS[containerOf(sniffedMime)];
  if (!type) throw notWhatItSays();
  let format: Awaited<ReturnType<typeof parseBuffer>>['format'];
  try {
    ({ format } = await parseBuffer(
      bytes,
      { mimeType: containerOf(sniffedMime), size: bytes.length },
      { skipCovers: true, skipPostHeaders: true },
    ));
  } catch {
    throw notWhatItSays();
  }
  if (format.hasVideo) throw isVideo();
  if (!format.hasAudio || !format.sampleRate || !format.numberOfChannels) throw notWhatItSays();
  return type;
}
