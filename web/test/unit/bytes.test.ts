// A size reads as the reader says it, in either language: the storage figure of an account with no file yet
// says "0 bytes", never "0 byte", and larger sizes take the short units.
import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../src/entities/media/bytes.ts';

describe('a size in bytes', () => {
  it('agrees with its count in English', () => {
    expect(formatBytes(0, 'en')).toBe('0 bytes');
    expect(formatBytes(1, 'en')).toBe('1 byte');
    expect(formatBytes(512, 'en')).toBe('512 bytes');
  });

  it('agrees with its count in Portuguese', () => {
    expect(formatBytes(0, 'pt-BR')).toBe('0 byte');
    expect(formatBytes(1, 'pt-BR')).toBe('1 byte');
    expect(formatBytes(512, 'pt-BR')).toBe('512 bytes');
  });

  it('takes the short unit from a kilobyte up, with one decimal under ten', () => {
    expect(formatBytes(1536, 'en')).toBe('1.5 kB');
    expect(formatBytes(100 * 1024 * 1024, 'en')).toBe('100 MB');
    expect(formatBytes(100 * 1024 * 1024, 'pt-BR')).toBe('100 MB');
  });
});
