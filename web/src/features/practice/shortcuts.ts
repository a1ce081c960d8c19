// The practice keyboard: Space or Enter reveals, 1–4 rate again/hard/good/easy, U or Ctrl/⌘+Z undoes, R
// plays the shown side's sounds again.
// Keys typed into a field, or pressed with other modifiers, are left alone, and Space or Enter on a focused
// button or link presses that control, as a keyboard user expects.
import { RATINGS, type RatingName } from '@engram/contracts/learning';

export type PracticeAction = 'reveal' | 'undo' | 'replay' | RatingName;

export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey?: boolean;
  repeat?: boolean;
  target?: unknown;
}

const TYPING = new Set(['INPUT', 'TEXTAREA', 'SELECT']);
const CONTROLS = new Set(['BUTTON', 'A', 'SUMMARY']);

function isTyping(target: unknown): boolean {
  const element = target as { tagName?: unknown; isContentEditable?: unknown } | null | undefined;
  return (typeof element?.tagName === 'string' && TYPING.has(element.tagName)) || element?.isContentEditable === true;
}

export function practiceKeyAction(event: KeyLike): PracticeAction | undefined {
  if (event.repeat || event.altKey || isTyping(event.target)) return undefined;
  const key = event.key.toLowerCase();
  if ((event.ctrlKey || event.metaKey) && key === 'z' && !event.shiftKey) return 'undo';
  if (event.ctrlKey || event.metaKey) return undefined;
  if (key === ' ' || key === 'enter') {
    const tag = (event.target as { tagName?: unknown } | null | undefined)?.tagName;
    return typeof tag === 'string' && CONTROLS.has(tag) ? undefined : 'reveal';
  }
  if (key === 'u') return 'undo';
  if (key === 'r') return 'replay';
  const rating = RATINGS[Number(key) - 1];
  return /^[1-4]$/.test(key) ? rating : undefined;
}
