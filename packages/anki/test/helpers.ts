// Shared by the package's tests: a scratch dir per test file and a raw zip writer for hostile packages.
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
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

/** Every entry of the zip at `path`, read whole (test packages are small). */
export async function readZip(path: string): Promise<RawEntry[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const entries: RawEntry[] = [];
      zip.on('error', reject);
      zip.on('end', () => resolve(entries));
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, async (streamError, stream) => {
          if (streamError || !stream) return reject(streamError);
          const chunks: Buffer[] = [];
          for await (const chunk of stream) chunks.push(chunk as Buffer);
          entries.push({ name: entry.fileName, data: Buffer.concat(chunks), compress: false });
          zip.readEntry();
        });
      });
      zip.readEntry();
    });
  });
}
