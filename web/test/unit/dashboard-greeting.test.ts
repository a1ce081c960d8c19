// "Welcome" for a learner who joined in this session, "Welcome back" once they return (a later sign-in).
import { describe, expect, it } from 'vitest';
import { greeting, isNewLearner } from '../../src/features/dashboard/greeting.ts';

const signedIn = new Date('2026-03-01T09:00:00Z');

describe('the dashboard greeting', () => {
  it('welcomes a learner who onboarded during this session', () => {
    expect(isNewLearner(new Date('2026-03-01T09:05:00Z'), signedIn)).toBe(true);
    expect(greeting({ name: 'Ada Lovelace', onboardedAt: '2026-03-01T09:05:00.000Z' }, { createdAt: signedIn })).toBe(
      'Welcome, Ada.',
    );
  });

  it('welcomes back a learner who onboarded before signing in', () => {
    expect(isNewLearner(new Date('2026-02-20T12:00:00Z'), signedIn)).toBe(false);
    expect(greeting({ name: 'Ada Lovelace', onboardedAt: '2026-02-20T12:00:00Z' }, { createdAt: signedIn })).toBe(
      'Welcome back, Ada.',
    );
  });

  it('welcomes back when it cannot tell', () => {
    expect(isNewLearner(null, signedIn)).toBe(false);
    expect(isNewLearner(signedIn, undefined)).toBe(false);
  });
});
