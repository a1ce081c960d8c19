// A new organization's slug follows its name in the create dialog: what the name becomes.
import { ORGANIZATION_SLUG_MAX_LENGTH } from '@engram/contracts/auth';
import { ORGANIZATION_SLUG_PATTERN, slugOfName } from '@engram/contracts/organizations';
import { describe, expect, it } from 'vitest';

describe('the slug offered for an organization name', () => {
  it('is lower case, without accents, with one hyphen for each run of spaces and signs', () => {
    expect(slugOfName('Study Club')).toBe('study-club');
    expect(slugOfName('Clube de Matemática – São Paulo')).toBe('clube-de-matematica-sao-paulo');
    expect(slugOfName('  Ça va?  Crème brûlée!! ')).toBe('ca-va-creme-brulee');
    expect(slugOfName('Grupo 42')).toBe('grupo-42');
  });

  it('is at most the slug limit long, and never ends with a hyphen', () => {
    const slug = slugOfName(`${'a'.repeat(47)} b c`);
    expect(slug).toBe('a'.repeat(47));
    expect(slugOfName('x'.repeat(100))).toHaveLength(ORGANIZATION_SLUG_MAX_LENGTH);
  });

  it('always fits the slug pattern, or is empty when the name has no letter or digit', () => {
    for (const name of ['Ünïcödé Ålpha', 'a--b', '-lead-', 'Ωmega 7', 'über_cool.club']) {
      expect(slugOfName(name), name).toMatch(ORGANIZATION_SLUG_PATTERN);
    }
    expect(slugOfName('!!! ---')).toBe('');
    expect(slugOfName('Ωμέγα')).toBe('');
  });
});
