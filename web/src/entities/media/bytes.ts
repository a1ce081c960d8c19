// A file's size in the reader's words ("1.2 MB", "2 GB"): the storage figure, the file list and the import
// screen's limit say sizes the same way.
import { getLocale } from '../../lib/i18n';

/** Bytes as the reader reads them: "1.2 MB", "350 kB", "0 bytes". */
export function formatBytes(bytes: number, locale: string = getLocale()): string {
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: units[unit],
    // Bytes are spelled out, so the count agrees with its unit ("0 bytes", "1 byte"); the short form reads "0 byte".
    unitDisplay: unit === 0 ? 'long' : 'short',
    maximumFractionDigits: value < 10 && unit > 0 ? 1 : 0,
  }).format(value);
}
