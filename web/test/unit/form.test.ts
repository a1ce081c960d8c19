// The form pattern: a contract schema decides, each failing field shows its own message, and the form
// hook shows them, sends and resets as below.
import { settingsFields, settingsUpdateInput } from '@engram/contracts/learning';
import { describe, expect, it } from 'vitest';
import {
  afterSave,
  attemptSubmit,
  bounds,
  fieldErrors,
  hasErrors,
  parseNumber,
  shownErrors,
} from '../../src/lib/form.ts';

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

// The hook's rules (useContractForm), as pure functions: when errors show, when a submit sends, and what a
// save leaves in the form.
type Draft = { name: string };
const check = (draft: Draft) => (draft.name.trim() === '' ? { name: 'Give it a name.' } : {});
const fresh = { draft: { name: '' }, attempted: false };

describe('a form over a problem function', () => {
  it('shows no error before the user first tries to submit, however wrong the draft', () => {
    expect(shownErrors(fresh, check)).toEqual({});
  });

  it('on submit, shows each failing field’s message and sends nothing', () => {
    const { state, send } = attemptSubmit(fresh, check);
    expect(send).toBe(false);
    expect(shownErrors(state, check)).toEqual({ name: 'Give it a name.' });
  });

  it('after a failed submit, takes a message away as soon as its field is right', () => {
    const { state } = attemptSubmit(fresh, check);
    expect(shownErrors({ ...state, draft: { name: 'Biology' } }, check)).toEqual({});
  });

  it('sends a draft its check finds nothing wrong with', () => {
    expect(attemptSubmit({ draft: { name: 'Biology' }, attempted: false }, check).send).toBe(true);
  });

  it('once saved, starts a form that resets over, its errors hidden until the next submit', () => {
    const saved = afterSave({ draft: { name: 'Biology' }, attempted: true }, () => ({ name: '' }));
    expect(saved).toEqual(fresh);
    expect(shownErrors(saved, check)).toEqual({});
  });

  it('once saved, keeps what was saved in a form that does not reset, a new mistake shown as it is typed', () => {
    const saved = afterSave({ draft: { name: 'Biology' }, attempted: true }, undefined);
    expect(saved.draft).toEqual({ name: 'Biology' });
    expect(shownErrors({ ...saved, draft: { name: ' ' } }, check)).toEqual({ name: 'Give it a name.' });
  });
});

// An eager field (Generate's number of cards) says what is wrong as soon as something is typed into it.
type Order = { name: string; count: string };
const checkOrder = (draft: Order) => ({
  ...(draft.name.trim() === '' && { name: 'Give it a name.' }),
  ...(!/^\d+$/.test(draft.count) && { count: 'A whole number, please.' }),
});

describe('a form with an eager field', () => {
  it('shows that field’s error before any submit attempt once it holds text, and no other field’s', () => {
    const typed = { draft: { name: '', count: '2.5' }, attempted: false };
    expect(shownErrors(typed, checkOrder, ['count'])).toEqual({ count: 'A whole number, please.' });
    expect(shownErrors(typed, checkOrder)).toEqual({});
  });

  it('shows nothing for it while it is empty, until the user tries to submit', () => {
    const empty = { draft: { name: '', count: ' ' }, attempted: false };
    expect(shownErrors(empty, checkOrder, ['count'])).toEqual({});
    expect(shownErrors(attemptSubmit(empty, checkOrder).state, checkOrder, ['count'])).toEqual({
      name: 'Give it a name.',
      count: 'A whole number, please.',
    });
  });

  it('shows nothing for it once what it holds is right', () => {
    expect(shownErrors({ draft: { name: '', count: '3' }, attempted: false }, checkOrder, ['count'])).toEqual({});
  });
});
