// The images and sounds of an Anki package that its notes show, kept as the learner's card files: each is
// checked and re-encoded as an uploaded file is (keepFile), stored under an id derived from the learner and
// its bytes (an import started over writes the same objects, never orphans beside them), and recorded in the
// import's transaction; bytes the learner keeps already are that file. A file missing from the package or
// refused is left out with its reason; files that would take the learner past their storage quota fail the
// import. The notes' `media:<name>` placeholders then become the files' same-origin URLs.

import { readFile } from 'node:fs/promises';
import type { AnkiMedia } from '@engram/anki/types';
import { type ImportProblemWords, importProblem } from '@engram/contracts/import-problems';
import type { MediaKind } from '@engram/contracts/media';
import {
  extensionOf,
  MAX_AUDIO_BYTES,
  MAX_IMAGE_BYTES,
  MEDIA_TYPES,
  mediaPath,
  safeMediaName,
} from '@engram/contracts/media';
import type { ObjectStore } from '@engram/kit/storage';
import type pg from 'pg';
import { type KeptFile, keepFile } from '../media/keep-file.js';
import { mediaKey } from '../media/media-json.js';
import { megabytes } from '../media/quota.js';
import { renamed } from '../media/store-kept-file.js';
import { derivedId } from './derived-id.js';
import { ImportFailed } from './import-failed.js';

export interface FileForCard {
  id: string;
  /** The same-origin URL a card's Markdown shows it by. */
  path: string;
  kind: MediaKind;
}

export type MediaOutcome = { file: FileForCard } | { problem: ImportProblemWords };

export interface PackageMediaArgs {
  tx: pg.ClientBase;
  store: ObjectStore;
  ownerId: string;
  media: AnkiMedia[];
  /** The learner's storage quota and what they keep already. */
  quotaBytes: number;
  usedBytes: number;
}

/** Files read and re-encoded at once (sharp works beside the database's round trips). */
const KEEP_AT_ONCE = 4;

const typeOfName = (name: string) => {
  const extension = extensionOf(name);
  return Object.entries(MEDIA_TYPES).find(([, type]) => type.extensions.includes(extension));
};

const quotaReached = (quotaBytes: number, usedBytes: number) =>
  new ImportFailed(importProblem('quotaReached', { quota: megabytes(quotaBytes), used: megabytes(usedBytes) }));

/** The package's files as the learner's card files, kept the first time a note shows each. */
export function packageMedia({ tx, store, ownerId, media, quotaBytes, usedBytes }: PackageMediaArgs) {
  const byName = new Map(media.map((file) => [file.name, file]));
  const outcomes = new Map<string, MediaOutcome>();
  /** Objects this import put in the store: removed again if it fails. */
  const stored: string[] = [];
  let added = 0;

  async function checked(name: string): Promise<{ problem: ImportProblemWords } | { kept: KeptFile }> {
    const file = byName.get(name) ?? byName.get(name.normalize('NFC'));
    if (!file) return { problem: importProblem('fileMissing', { name }) };
    const type = typeOfName(name);
    if (!type) return { problem: importProblem('fileNotMedia', { name }) };
    const [contentType, { kind }] = type;
    const limit = kind === 'image' ? MAX_IMAGE_BYTES : MAX_AUDIO_BYTES;
    if (file.size > limit) return { problem: importProblem('fileTooLarge', { name, limit: megabytes(limit) }) };
    try {
      return { kept: await keepFile(await readFile(file.path), contentType) };
    } catch {
      // Its bytes are not the image or sound its name says (keepFile's refusal), or cannot be decoded.
      return { problem: importProblem('fileUnreadable', { name }) };
    }
  }

  async function record(name: string, kept: KeptFile): Promise<FileForCard> {
    const [existing] = (
      await tx.query<{ id: string; name: string }>(
        'SELECT id::text, name FROM media WHERE owner_id = $1 AND sha256 = $2',
        [ownerId, kept.sha256],
      )
    ).rows;
    if (existing) return { id: existing.id, path: mediaPath(existing.id, existing.name), kind: kept.kind };
    if (usedBytes + added + kept.bytes.length > quotaBytes) throw quotaReached(quotaBytes, usedBytes);
    added += kept.bytes.length;
    const id = derivedId('anki-media', ownerId, kept.sha256);
    const objectKey = mediaKey(ownerId, id, kept.extension);
    stored.push(objectKey);
    await store.putObject(objectKey, kept.bytes, { contentType: kept.contentType, contentLength: kept.bytes.length });
    const fileName = safeMediaName(renamed(name, kept.extension));
    // The same bytes kept at this moment by the learner's card editor: that file is the one.
    const [row] = (
      await tx.query<{ id: string; name: string }>(
        `INSERT INTO media (id, owner_id, name, kind, content_type, size, sha256, object_key)
       VALUES ($1::uuid, $2, $3, $4, $5, $6::bigint, $7, $8)
       ON CONFLICT (owner_id, sha256) DO UPDATE SET name = media.name
       RETURNING id::text, name`,
        [id, ownerId, fileName, kept.kind, kept.contentType, kept.bytes.length, kept.sha256, objectKey],
      )
    ).rows;
    if (row!.id !== id) {
      stored.pop();
      added -= kept.bytes.length;
      await store.deleteObject(objectKey);
    }
    return { id: row!.id, path: mediaPath(row!.id, row!.name), kind: kept.kind };
  }

  return {
    /** Keeps the files of `names` not seen before; the outcome of each is then `outcome(name)`. */
    async keep(names: Iterable<string>): Promise<{ name: string; problem: ImportProblemWords }[]> {
      const fresh = [...new Set(names)].filter((name) => !outcomes.has(name));
      const problems: { name: string; problem: ImportProblemWords }[] = [];
      for (let at = 0; at < fresh.length; at += KEEP_AT_ONCE) {
        const group = fresh.slice(at, at + KEEP_AT_ONCE);
        const checks = await Promise.all(group.map(checked));
        for (const [index, check] of checks.entries()) {
          const name = group[index]!;
          if ('problem' in check) {
            outcomes.set(name, check);
            problems.push({ name, problem: check.problem });
          } else {
            outcomes.set(name, { file: await record(name, check.kept) });
          }
        }
      }
      return problems;
    },
    outcome: (name: string) => outcomes.get(name),
    /** How many files the cards show. */
    keptCount: () => [...outcomes.values()].filter((outcome) => 'file' in outcome).length,
    /** Removes the objects this import stored, once its transaction rolled back. */
    async forget() {
      if (stored.length > 0) await store.deleteObjects(stored);
    },
  };
}

// `![alt](media:name)` or `[sound](media:name)`, the name URL-encoded and Markdown-escaped (`\(`), or with
// balanced parentheses left as they are.
const PLACEHOLDER = /(!?)\[((?:\\.|[^\]\\])*)\]\(media:((?:\\.|\([^\s()]*\)|[^\s()\\])*)\)/g;

function nameOf(destination: string): string {
  const unescaped = destination.replace(/\\(.)/g, '$1');
  try {
    return decodeURIComponent(unescaped);
  } catch {
    return unescaped;
  }
}

/** A file's URL with its parentheses encoded too, so any name makes a whole Markdown link. */
const linkable = (path: string) => path.replaceAll('(', '%28').replaceAll(')', '%29');

/** Text that Markdown shows as it is. */
const literal = (text: string) => text.replace(/[\\`*_[\]<>~|]/g, '\\$&');

/**
 * `markdown` with its media placeholders pointing at the kept files: an image as an image, a sound as an image
 * whose file is a sound (the card renderer draws its player), labelled by its name; a file left out becomes
 * its name as text, so the card still says what it showed. With `keepMissing`, a name `outcome` does not know
 * keeps its placeholder (a file an Anki tool stores after the note that shows it: AnkiConnect's media).
 */
export function withFileUrls(
  markdown: string,
  outcome: (name: string) => MediaOutcome | undefined,
  { keepMissing = false } = {},
): string {
  return markdown.replace(PLACEHOLDER, (whole: string, _bang: string, alt: string, destination: string) => {
    const name = nameOf(destination);
    const kept = outcome(name);
    if (!kept && keepMissing) return whole;
    if (!kept || 'problem' in kept) return literal(name);
    const label = kept.file.kind === 'audio' ? name.replace(/\.[^.]+$/, '').replace(/[[\]\\]/g, '') : alt;
    return `![${label}](${linkable(kept.file.path)})`;
  });
}
