// The practice keyboard: Space or Enter reveals, 1–4 rate, U or Ctrl/⌘+Z undo; typing in a field is never a shortcut.
import { describe, expect, it } from 'vitest';
import { practiceKeyAction } from '../../src/features/practice/shortcuts.ts';

const key = (k: string, extra: Partial<Parameters<typeof practiceKeyAction>[0]> = {}) =>
  practiceKeyAction({ key: k, ctrlKey: false, metaKey: false, altKey: false, ...extra });

describe('practice shortcuts', () => {
  it('reveals with Space or Enter and rates again, hard, good, easy with 1 to 4', () => {
    expect(key(' ')).toBe('reveal');
    expect(key('Enter')).toBe('reveal');
    expect(['1', '2', '3', '4'].map((k) => key(k))).toEqual(['again', 'hard', 'good', 'easy']);
  });

  it('undoes with U, Ctrl+Z or ⌘+Z', () => {
    expect(key('u')).toBe('undo');
    expect(key('U', { shiftKey: true })).toBe('undo');
    expect(key('z', { ctrlKey: true })).toBe('undo');
    expect(key('z', { metaKey: true })).toBe('undo');
  });

  it("replays the shown side's sounds with R, as Anki does, but not with Ctrl+R (the browser's reload)", () => {
    expect(key('r')).toBe('replay');
    expect(key('R', { shiftKey: true })).toBe('replay');
    expect(key('r', { ctrlKey: true })).toBeUndefined();
    expect(key('r', { target: { tagName: 'TEXTAREA' } })).toBeUndefined();
  });

  it('leaves Space and Enter to a focused button or link, but still rates and undoes from there', () => {
    expect(key(' ', { target: { tagName: 'BUTTON' } })).toBeUndefined();
    expect(key('Enter', { target: { tagName: 'BUTTON' } })).toBeUndefined();
    expect(key('Enter', { target: { tagName: 'A' } })).toBeUndefined();
    expect(key(' ', { target: { tagName: 'A' } })).toBeUndefined();
    expect(key(' ', { target: { tagName: 'BODY' } })).toBe('reveal');
    expect(key('2', { target: { tagName: 'BUTTON' } })).toBe('hard');
    expect(key('u', { target: { tagName: 'BUTTON' } })).toBe('undo');
  });

  it('ignores other keys, held-down repeats, modified keys and keys typed into a field', () => {
    expect(key('5')).toBeUndefined();
    expect(key('0')).toBeUndefined();
    expect(key('Tab')).toBeUndefined();
    expect(key('Enter', { ctrlKey: true })).toBeUndefined();
    expect(key('Enter', { target: { tagName: 'TEXTAREA' } })).toBeUndefined();
    expect(key('1', { repeat: true })).toBeUndefined();
    expect(key('1', { ctrlKey: true })).toBeUndefined();
    expect(key('z', { ctrlKey: true, shiftKey: true })).toBeUndefined();
    expect(key(' ', { altKey: true })).toBeUndefined();
    expect(key('1', { target: { tagName: 'INPUT' } })).toBeUndefined();
    expect(key('u', { target: { tagName: 'TEXTAREA' } })).toBeUndefined();
    expect(key(' ', { target: { tagName: 'DIV', isContentEditable: true } })).toBeUndefined();
  });
});
