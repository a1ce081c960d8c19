// The mails better-auth asks identity to send, in the requester's language (Accept-Language), through
// the service's mailer. A mail that cannot be sent (the mailer has logged why) fails the request that
// wanted it with 503 EMAIL_NOT_SENT, with two exceptions: after sign-up better-auth only logs it (the
// account exists; the user can ask for another link), and a password reset answers as usual, since only
// existing accounts get that mail and a failure would tell an outsider that the address has one (the same
// holds for the warning that someone is guessing a password).
import { MailDeliveryError, type Mailer } from '@engram/kit/mail/mailer';
import { APIError } from 'better-auth/api';
import { type Locale, localeOf } from '../mail/locale.js';
import { htmlOf, type InvitedRole, type MailContent, MESSAGES, type OtpPurpose } from '../mail/messages.js';

/** What better-auth hands a sender: the request itself, or the endpoint context holding it. */
type RequestSource = Request | { request?: Request | undefined; headers?: Headers | undefined } | undefined;

function acceptLanguageOf(source: RequestSource): string | null {
  if (!source) return null;
  if (source instanceof Request) return source.headers.get('accept-language');
  return source.request?.headers.get('accept-language') ?? source.headers?.get('accept-language') ?? null;
}

const notSent = (error: unknown) => {
  if (!(error instanceof MailDeliveryError)) throw error;
  throw new APIError('SERVICE_UNAVAILABLE', {
    code: 'EMAIL_NOT_SENT',
    message: 'The email could not be sent. Please try again later.',
  });
};

const unnoticed = (error: unknown) => {
  if (!(error instanceof MailDeliveryError)) throw error;
};

export function mailSenders(mailer: Mailer) {
  const send = (to: string, source: RequestSource, compose: (messages: (typeof MESSAGES)['en']) => MailContent) => {
    const { subject, text } = compose(MESSAGES[localeOf(acceptLanguageOf(source))]);
    return mailer.send({ to, subject, text, html: htmlOf(text) });
  };
  return {
    verificationEmail: ({ user, url }: { user: { email: string }; url: string }, request?: Request) =>
      send(user.email, request, (m) => m.verifyEmail(url)).catch(notSent),
    /** To the current address, before the new one is asked to verify itself. */
    changeEmailConfirmation: (
      { user, newEmail, url }: { user: { email: string }; newEmail: string; url: string },
      request?: Request,
    ) => send(user.email, request, (m) => m.confirmEmailChange(url, newEmail)).catch(notSent),
    resetPassword: ({ user, url }: { user: { email: string }; url: string }, request?: Request) =>
      send(user.email, request, (m) => m.resetPassword(url)).catch(unnoticed),
    magicLink: ({ email, url }: { email: string; url: string }, ctx?: RequestSource) =>
      send(email, ctx, (m) => m.magicLink(url)).catch(notSent),
    emailOtp: ({ email, otp, type }: { email: string; otp: string; type: OtpPurpose }, ctx?: RequestSource) =>
      send(email, ctx, (m) => m.otp(otp, type)).catch(notSent),
    /** To the invited address, with the web app's invitation page (the accept-invitation view) and the role by its label. */
    invitation: (
      {
        email,
        id,
        role,
        organization,
        inviter,
      }: {
        email: string;
        id: string;
        role: InvitedRole;
        organization: { name: string };
        inviter: { user: { name: string } };
      },
      url: (invitationId: string) => string,
      request?: Request,
    ) => send(email, request, (m) => m.invitation(url(id), inviter.user.name, organization.name, role)).catch(notSent),
    /**
     * To an account's owner when its password is being guessed: in the language of their last sign-in, not
     * the guesser's request. Like a reset, a failure answers as usual (the guesser must not learn of it).
     */
    passwordGuessing: (to: string, locale: Locale, url: string) => {
      const { subject, text } = MESSAGES[locale].passwordGuessing(url);
      return mailer.send({ to, subject, text, html: htmlOf(text) }).catch(unnoticed);
    },
    twoFactorCode: ({ user, otp }: { user: { email: string }; otp: string }, ctx?: RequestSource) =>
      send(user.email, ctx, (m) => m.twoFactorCode(otp)).catch(notSent),
  };
}
