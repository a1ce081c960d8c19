// docs/product.md#the-protected-group: the protected group sends a user without onboardedAt to /onboarding, and an
// onboarded user away from it.
import { describe, expect, it } from 'vitest';
import {
  onboardingRedirect,
  onboardingSearch,
  validateOnboardingSearch,
} from '../../src/features/onboarding/redirect.ts';

describe('the onboarding guard', () => {
  it('sends a user who has not onboarded to /onboarding from any protected page', () => {
    expect(onboardingRedirect('/dashboard', null)).toBe('/onboarding');
    expect(onboardingRedirect('/practice/session', undefined)).toBe('/onboarding');
    expect(onboardingRedirect('/onboardingx', null)).toBe('/onboarding');
  });

  it('lets a user who has not onboarded stay on /onboarding', () => {
    expect(onboardingRedirect('/onboarding', null)).toBeUndefined();
  });

  it('sends an onboarded user from /onboarding to the dashboard and lets them go anywhere else', () => {
    const onboardedAt = new Date('2026-01-01T10:00:00Z');
    expect(onboardingRedirect('/onboarding', onboardedAt)).toBe('/dashboard');
    expect(onboardingRedirect('/settings', onboardedAt)).toBeUndefined();
    expect(onboardingRedirect('/dashboard', '2026-01-01T10:00:00.000Z')).toBeUndefined();
  });
});

describe('where onboarding ends', () => {
  it('keeps where the user was headed, and needs nothing for the dashboard', () => {
    expect(onboardingSearch('/dashboard?invitation=inv-1')).toEqual({ redirectTo: '/dashboard?invitation=inv-1' });
    expect(onboardingSearch('/practice/new')).toEqual({ redirectTo: '/practice/new' });
    expect(onboardingSearch('/dashboard')).toEqual({});
  });

  it('reads only a text redirectTo from the address', () => {
    expect(validateOnboardingSearch({ redirectTo: '/settings' })).toEqual({ redirectTo: '/settings' });
    expect(validateOnboardingSearch({ redirectTo: 42 })).toEqual({});
  });
});
