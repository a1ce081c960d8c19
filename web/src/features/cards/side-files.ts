// The files a side of a card shows, read from its Markdown, for the thumbnails under the side's field: the text
// holds each file as `![label](/media/<id>/<name>)`, which a learner should not have to read to know what the
// card holds, nor edit by hand to take a file out.
import { isSoundName, mediaAddressesIn, parseMediaPath } from '@engram/contracts/media-files';

export interface SideFile {
  /** As written in the side: `/media/<id>/<name>`. */
  address: string;
  /** The file's name, decoded. */
  name: string;
  sound: boolean;
}

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/** Each file the side shows, once, in the order it first appears. */
export function filesOf(text: string): SideFile[] {
  const files = new Map<string, SideFile>();
  for (const address of mediaAddressesIn(text)) {
    const parsed = parseMediaPath(address);
    if (!parsed || files.has(address)) continue;
    const name = decodedName(parsed.name);
    files.set(address, { address, name, sound: isSoundName(name) });
  }
  return [...files.values()];
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The side without the file: every picture or sound of it (`![…](address)`) taken out, with the line that held
 * only it, and other text as it was.
 */
export function withoutFile(text: string, address: string): string {
  const file = new RegExp(`!\\[[^\\]]*\\]\\(${escaped(address)}\\)`, 'g');
  return text
    .split('\n')
    .flatMap((line) => {
      const left = line.replace(file, '');
      if (left === line) return [line];
      return left.trim() === '' ? [] : [left.replace(/ {2,}/g, ' ').trimEnd()];
    })
    .join('\n');
}
