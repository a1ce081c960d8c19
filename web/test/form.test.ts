// The form pattern: a contract schema decides, and each failing field shows its own message.
import { settingsFields, settingsUpdateInput } from '@engram/contracts/learning';
import { describe, expect, it } from 'vitest';
import { bounds, fieldErrors, hasErrors, parseNumber } from '../src/lib/form.ts';

const MESSAGES = {
  dayStartHour: () => 'day start message',
  desiredRetention: () => 'retention message',
  learningSteps: () => 'steps message',
};

describe('field errors from a contract schema', () => {
  it('has none for valid values', () => {
    const errors = fieldErrors(settingsUpdateInput, { dayStartHour: 4, desiredRetention: 0.9 }, MESSAGES);
    expect(errors).toEqual({});
    expect(hasErrors(errors)).toBe(false);
  });

  it('gives each failing field its message, once, and nothing for the fields that pass', () => {
    const errors = fieldErrors(
      settingsUpdateInput,
      { dayStartHour: 24, desiredRetention: 0.9, learningSteps: ['1x', 'ten'] },
      MESSAGES,
    );
    expect(errors).toEqual({ dayStartHour: 'day start message', learningSteps: 'steps message' });
    expect(hasErrors(errors)).toBe(true);
  });

  it('refuses an empty or malformed number typed into a field', () => {
    expect(fieldErrors(settingsUpdateInput, { desiredRetention: parseNumber('') }, MESSAGES)).toEqual({
      desiredRetention: 'retention message',
    });
    expect(Number.isNaN(parseNumber('0.9x'))).toBe(true);
    expect(parseNumber(' 0.85 ')).toBe(0.85);
  });

  it('reads the limits a message names from the contract', () => {
    expect(bounds(settingsFields.desiredRetention)).toEqual({ min: 0.7, max: 0.99 });
    expect(bounds(settingsFields.dayStartHour)).toEqual({ min: 0, max: 23 });
  });
});
