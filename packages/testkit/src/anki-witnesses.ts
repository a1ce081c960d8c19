// Packages written by Anki itself, for any test that reads Anki's files (packages/anki/test/anki-written/
// SOURCES.md): the ones committed there, and every .apkg and .colpkg in ANKI_WITNESSES, else in
// ../shared/anki-packages beside the checkout (where this workplace keeps data files taken from public
// repositories, which cannot be committed here).
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '../../..');
export const COMMITTED_WITNESSES = join(root, 'packages/anki/test/anki-written');
export const EXTERNAL_WITNESSES = process.env.ANKI_WITNESSES ?? join(root, '../shared/anki-packages');

export const packagesIn = (dir: string) =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => /\.(apkg|colpkg)$/i.test(name))
        .sort()
        .map((name) => join(dir, name))
    : [];

/** Every package written by Anki that this run can read, committed ones first. */
export const ankiWrittenPackages = () => [...packagesIn(COMMITTED_WITNESSES), ...packagesIn(EXTERNAL_WITNESSES)];
