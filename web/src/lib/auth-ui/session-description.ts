// What a signed-in session is called wherever sessions are listed (the learner's security page, an admin's view
// of a user): the device, read from the user agent as a new passkey is named ("Safari on iPhone"), and when it
// signed in, when it was last active and the address it came from.
import { getLocale, m } from '../i18n';
import { deviceName } from './passkey-name';

export interface DescribedSession {
  userAgent?: string | null;
  ipAddress?: string | null;
  createdAt: Date | string;
  updatedAt: Date | string;
}

const when = (date: Date | string) =>
  new Intl.DateTimeFormat(getLocale(), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(date));

export const sessionDevice = (session: DescribedSession): string =>
  deviceName(session.userAgent ?? '') ?? m.session_unknown_device();

/** "Signed in 29 Nov 2026, 18:55 · last active 29 Nov 2026, 19:10 · from 203.0.113.7" */
export const sessionDetails = (session: DescribedSession): string =>
  [
    m.session_signed_in({ when: when(session.createdAt) }),
    m.session_last_active({ when: when(session.updatedAt) }),
    ...(session.ipAddress ? [m.session_address({ address: session.ipAddress })] : []),
  ].join(' · ');

/** The sessions card's rows (better-auth-ui, patched: `describeSession`). */
export const describeSession = (session: DescribedSession) => ({
  device: sessionDevice(session),
  details: sessionDetails(session),
});
