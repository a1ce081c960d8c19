// The reason of a ban, as /suspended and the admin area show it: the administrator's words, or none when
// they gave none (identity stores its placeholder then, which no screen shows as a reason).
import { BAN_WITHOUT_REASON, banReasonOf } from '@engram/contracts/auth';
import { describe, expect, it } from 'vitest';

describe('the reason of a ban', () => {
  it('is the words the administrator gave', () => {
    expect(banReasonOf('Copied answers into a shared deck')).toBe('Copied answers into a shared deck');
  });

  it('is none when they gave none', () => {
    for (const stored of [BAN_WITHOUT_REASON, '', null, undefined]) expect(banReasonOf(stored)).toBeUndefined();
  });
});
