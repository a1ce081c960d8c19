// A poisoned package: a learner uploads and imports a .apkg of about 12 KB whose collection's `notes` table makes
// its `flds` column a generated one, `printf('%.*c', 999999999, 'x')`: each time SQLite reads a note's fields it
// builds a string of almost a billion x's (SQLite refuses at once anything over its 10⁹-byte length limit, so
// this is the largest it builds: about 1 GB of memory and a couple of seconds of one core, per note, per read).
// The expected outcome: the import fails with a reason the learner can read, and nothing else is hurt (the
// other learners' reviews keep their pace, no process restarts, the learner's collection is unchanged).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { GENERATED_DECKS, GENERATED_NOTE_TYPES } from '@engram/anki/generate-collection';
import { LEGACY_CONF, legacyDecks, legacyModels, SCHEMA11_SQL } from '@engram/anki/schema';
import yazl from 'yazl';
import {
  type Answer,
  call,
  followImport,
  type HostileLearner,
  hostileLearner,
  send,
  uploadForImport,
} from './learner.ts';

/** The notes in the package: each costs a read of the column about a billion bytes. */
const NOTES = 4;
const POISON = "printf('%.*c', 999999999, 'x')";
/** How long the import may take to fail before the row says it never ended. */
const IMPORT_BOUND_MS = 60_000;

const NOTES_TABLE = /CREATE TABLE notes \(([^;]*)\);/;

/** A legacy (schema 11) collection whose notes' fields are the poison, written at `path`. */
function poisonedCollection(path: string): void {
  const db = new DatabaseSync(path);
  try {
    const columns = NOTES_TABLE.exec(SCHEMA11_SQL)?.[1] ?? '';
    const stored = columns.replace(/\s*flds text NOT NULL,/, '');
    db.exec(SCHEMA11_SQL.replace(NOTES_TABLE, `CREATE TABLE notes (${stored});`));
    db.prepare("INSERT INTO col VALUES (1, 0, 0, 0, 11, 0, 0, 0, ?, ?, ?, '{}', '{}')").run(
      LEGACY_CONF,
      legacyModels(GENERATED_NOTE_TYPES, 1, 0),
      legacyDecks(GENERATED_DECKS, 0),
    );
    const note = db.prepare("INSERT INTO notes VALUES (?, ?, ?, 0, 0, '', 0, 0, 0, '')");
    for (let i = 1; i <= NOTES; i += 1) note.run(i, `poison${i}`, GENERATED_NOTE_TYPES[0]?.id ?? 0);
    // The rows hold no fields; the schema says to make them (a generated column is computed when read, so it
    // goes last, after the stored ones).
    const version = Number((db.prepare('PRAGMA schema_version').get() as { schema_version: number }).schema_version);
    db.enableDefensive(false);
    db.exec('PRAGMA writable_schema = ON');
    db.prepare("UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = 'notes'").run(
      `CREATE TABLE notes (${stored}, flds text GENERATED ALWAYS AS (${POISON}))`,
    );
    db.exec(`PRAGMA schema_version = ${version + 1}`);
    db.exec('PRAGMA writable_schema = OFF');
  } finally {
    db.close();
  }
}

/** The package's bytes: the collection and an empty media map, as a legacy export holds them. */
export async function poisonedPackage(): Promise<Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-proof-poison-'));
  try {
    const collection = join(dir, 'collection.anki2');
    poisonedCollection(collection);
    const zip = new yazl.ZipFile();
    zip.addBuffer(readFileSync(collection), 'collection.anki2');
    zip.addBuffer(Buffer.from('{}'), 'media');
    zip.end();
    const chunks: Buffer[] = [];
    for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface ImportProblem {
  reason?: string;
  message: string;
}

/** Each way the followed import ended otherwise than failed with a reason, leaving the learner no card. */
function problemsOf(followed: Awaited<ReturnType<typeof followImport>>, cards: Answer): string[] {
  const { state, done, ms } = followed;
  const reasons = (state?.problems ?? []).filter((problem: ImportProblem) => problem.reason);
  return [
    ...(!done
      ? [`the import had not ended after ${Math.round(ms / 1000)} s (it was ${state?.status})`]
      : state.status !== 'failed'
        ? [`the import ended ${state.status}, not failed`]
        : reasons.length === 0
          ? [`the import failed without a reason: ${JSON.stringify(state.problems)}`]
          : []),
    ...(cards.status !== 200
      ? [`the learner's cards could not be read: ${cards.status}`]
      : cards.data.items.length > 0
        ? [`the import left ${cards.data.items.length} cards`]
        : []),
  ];
}

export const POISONED_PACKAGE: HostileLearner = {
  name: 'a poisoned package imported (fields generated at ~1 GB each)',
  expected: 'the import fails with a reason',
  async ready(stack) {
    const who = await hostileLearner(stack, 'proof-poisoner');
    const bytes = await poisonedPackage();
    const uploadId = await uploadForImport(stack.url, who, 'poisoned.apkg', bytes);
    return async () => {
      const { importId } = await call(stack.url, who, 'imports.start', { uploadId }, 'mutation');
      const followed = await followImport(stack.url, who, importId, IMPORT_BOUND_MS);
      const cards = await send(stack.url, who, 'cards.list', {}, 'query');
      const { state, done, ms } = followed;
      const reason: ImportProblem | undefined = state?.problems?.find((problem: ImportProblem) => problem.reason);
      const ended = done ? `ended ${state.status}` : 'had not ended';
      const why = reason ? ` (${reason.reason}: ${reason.message})` : '';
      const outcome = `a ${bytes.length}-byte package: the import ${ended} after ${(ms / 1000).toFixed(1)} s${why}`;
      return { outcome, problems: problemsOf(followed, cards) };
    };
  },
};
