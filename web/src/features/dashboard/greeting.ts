// The dashboard's greeting: "Welcome" for a learner new to Engram, "Welcome back" for one who returns. New
// means onboarded during the session in use: the sign-up's (or the verification link's) session; once they
// sign in again, they are returning.
import { m } from '../../lib/i18n';

type Moment = Date | string | null | undefined;

export function isNewLearner(onboardedAt: Moment, sessionCreatedAt: Moment): boolean {
  if (!onboardedAt || !sessionCreatedAt) return false;
  return new Date(onboardedAt).getTime() >= new Date(sessionCreatedAt).getTime();
}

/** The first word of the name (the whole name when it has no spaces). */
const firstNameOf = (name: string): string => name.trim().split(/\s+/)[0] || name;

export function greeting(user: { name: string; onboardedAt?: Moment }, session: { createdAt: Moment }): string {
  const name = firstNameOf(user.name);
  return isNewLearner(user.onboardedAt, session.createdAt)
    ? m.dashboard_welcome_new({ name })
    : m.dashboard_welcome({ name });
}
