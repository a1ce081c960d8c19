// Phone numbers as people type them, read in E.164 the one way identity stores them: with a country code in any of
// the usual spellings, without one only in the learner's country; anything that is not a number of a real numbering
// plan is refused. Formatting gives back the international way of writing it.
import { describe, expect, it } from 'vitest';
import { countryOfLocale, formatPhoneNumber, toE164 } from '../../src/phone-numbers.ts';

describe('reading a typed phone number', () => {
  it.each([
    ['+55 (11) 91234-5678', undefined, '+5511912345678'],
    ['+55 11 91234 5678', undefined, '+5511912345678'],
    ['+5511912345678', undefined, '+5511912345678'],
    ['005511912345678', undefined, '+5511912345678'],
    ['  +1 (202) 555-0143 ', undefined, '+12025550143'],
    ['(11) 91234-5678', 'BR', '+5511912345678'],
    ['202.555.0143', 'US', '+12025550143'],
    ['+55 11 91234 5678', 'US', '+5511912345678'],
  ] as const)('reads %s (country %s) as %s', (typed, country, e164) => {
    expect(toE164(typed, country)).toBe(e164);
  });

  it.each([
    ['', undefined],
    ['12345', undefined],
    ['(11) 91234-5678', undefined],
    ['+55 11 1234', undefined],
    ['+999 1234 5678', undefined],
    ['call me on +55 11 91234 5678', undefined],
    ['+55 11 91234-5678 ext. 12; DROP TABLE', undefined],
    ['1234', 'BR'],
  ] as const)('refuses %j (country %s)', (typed, country) => {
    expect(toE164(typed, country)).toBeNull();
  });

  it('writes a stored number the international way', () => {
    expect(formatPhoneNumber('+5511912345678')).toBe('+55 11 91234 5678');
    expect(formatPhoneNumber('+12025550143')).toBe('+1 202 555 0143');
  });

  it('finds the country of a locale that names one', () => {
    expect(countryOfLocale('pt-BR')).toBe('BR');
    expect(countryOfLocale('en_US')).toBe('US');
    expect(countryOfLocale('en')).toBeUndefined();
    expect(countryOfLocale('zh-Hant-TW')).toBeUndefined();
    expect(countryOfLocale(undefined)).toBeUndefined();
  });
});
