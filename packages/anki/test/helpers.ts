// Shared by the package's tests: a scratch dir per test file and a raw zip writer for hostile packages.
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';

export function scratchDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'anki-test-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface RawEntry {
  name: string;
  data?: Buffer;
  path?: string;
  compress?: boolean;
}

/** Writes a zip with exactly these entries. */
export async function writeZip(out: string, entries: RawEntry[]): Promise<void> {
  const zip = new yazl.ZipFile();
  const done = pipeline(zip.outputStream, createWriteStream(out));
  for (const entry of entries) {
    const options = { compress: entry.compress ?? true };
    if (entry.path) zip.addFile(entry.path, entry.name, options);
    else zip.addBuffer(entry.data ?? Buffer.alloc(0), entry.name, options);
  }
  zip.end();
  await done;
}
