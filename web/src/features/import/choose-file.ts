// Which files the import screen takes, checked before a byte is sent: the contract's upload check for an
// import (an Anki package, a CSV, TSV or text file, not empty, within the size limit), its refusal in the
// learner's language (in English the contract's own words, which the gateway would answer).
import { createUploadInput, IMPORT_EXTENSIONS, MAX_IMPORT_BYTES } from '@engram/contracts/media';
import { formatBytes } from '../../entities/media/bytes';
import { m } from '../../lib/i18n';

/** What a file chooser offers: the extensions an import takes. */
export const IMPORT_ACCEPT = Object.keys(IMPORT_EXTENSIONS)
  .map((extension) => `.${extension}`)
  .join(',');

/** The size limit as the drop zone and its refusal name it ("2 GB"). */
export const importLimit = () => formatBytes(MAX_IMPORT_BYTES);

const REFUSALS: Record<string, () => string> = {
  name: m.import_file_kind,
  size: () => m.import_file_too_large({ max: importLimit() }),
};

/** Why `file` cannot be imported, or undefined when it can be sent. */
export function fileRefusal(file: { name: string; size: number }): string | undefined {
  const checked = createUploadInput.safeParse({ name: file.name, size: file.size, contentType: '', purpose: 'import' });
  const issue = checked.error?.issues[0];
  if (!issue) return undefined;
  const field = String(issue.path[0] ?? '');
  if (field === 'size' && file.size < 1) return m.import_file_empty();
  return REFUSALS[field]?.() ?? issue.message;
}
