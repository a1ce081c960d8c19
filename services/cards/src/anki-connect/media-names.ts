// The learner's files by the names Anki's tools gave them (anki_media_names): what a note's `<img src="name">` and
// `[sound:name]` point at, and what retrieveMediaFile reads.
import { mediaPath } from '@engram/contracts/media';
import type { FileForCard } from '../imports/anki-media.js';
import type { MediaDeps } from '../media/media-deps.js';

/** The learner's files known by these Anki names, by name. */
export async function filesNamed(deps: Pick<MediaDeps, 'db'>, ownerId: string, names: readonly string[]) {
  if (names.length === 0) return new Map<string, FileForCard>();
  const rows = await deps.db.ankiMediaName.findMany({
    where: { ownerId, name: { in: [...new Set(names)] } },
    include: { media: true },
  });
  return new Map(
    rows.map((row) => [
      row.name,
      { id: row.media.id, path: mediaPath(row.media.id, row.media.name), kind: row.media.kind as FileForCard['kind'] },
    ]),
  );
}

/**
 * retrieveMediaFile, as cards answers it to the gateway: the id of the learner's file known by `name`, or false.
 * The gateway reads the file through the store (OpenMedia) and answers its bytes as base64: a sound may be
 * larger than a call between services carries.
 */
export async function ankiMediaId(
  { db }: Pick<MediaDeps, 'db'>,
  ownerId: string,
  name: string,
): Promise<string | false> {
  const named = await db.ankiMediaName.findUnique({ where: { ownerId_name: { ownerId, name } } });
  return named?.mediaId ?? false;
}
