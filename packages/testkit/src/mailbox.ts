// Reading mail in end-to-end tests the way a user reads it: the dev mailbox through the gateway
// (GET /api/dev/mailbox?to=, an address or a phone number), the link or code taken from the message's text.
import { waitUntil } from './wait.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  sentAt: string;
  /** A mail, or a text message (SMS) to a phone number (subject "Text message"). */
  channel: 'mail' | 'sms';
}

/** The messages the dev mailbox keeps for `to`, newest first. */
export async function readMailbox(gatewayUrl: string, to: string): Promise<Mail[]> {
  const response = await fetch(`${gatewayUrl}/api/dev/mailbox?to=${encodeURIComponent(to)}`);
  if (!response.ok) throw new Error(`the dev mailbox answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { messages: Mail[] }).messages;
}

/**
 * Waits for the newest message to `to` whose subject matches `subject`, arrived after the `seen`
 * messages (a count from an earlier readMailbox), and returns it.
 */
export async function nextMail(gatewayUrl: string, to: string, subject: RegExp, seen = 0): Promise<Mail> {
  let found: Mail | undefined;
  await waitUntil(`a mail to ${to} about ${subject}`, async () => {
    const messages = await readMailbox(gatewayUrl, to);
    found = messages.slice(0, messages.length - seen).find((mail) => subject.test(mail.subject));
    return found !== undefined;
  });
  return found as Mail;
}

/** The first link in a mail's text. */
export function linkIn(mail: Pick<Mail, 'text'>): string {
  const link = /https?:\/\/\S+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`no link in the mail:\n${mail.text}`);
  return link;
}

/** The one-time code (six digits on a line of their own) in a mail's text. */
export function codeIn(mail: Pick<Mail, 'text'>): string {
  const code = /^\d{6}$/m.exec(mail.text)?.[0];
  if (!code) throw new Error(`no code in the mail:\n${mail.text}`);
  return code;
}

/** The one-time code of a text message ("Your Engram code is 123456. …"). */
export function smsCodeIn(message: Pick<Mail, 'text'>): string {
  const code = /\b(\d{6})\b/.exec(message.text)?.[1];
  if (!code) throw new Error(`no code in the text message:\n${message.text}`);
  return code;
}

/** The Cookie header a browser would send after `response` (name=value of every Set-Cookie). */
export function cookieFrom(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((header) => header.split(';')[0])
    .join('; ');
}

/**
 * The Cookie header a browser sends after `response`, starting from `cookie`: each Set-Cookie replaces
 * the cookie of its name, and an expired one (Max-Age=0 or an empty value) removes it.
 */
export function cookiesAfter(response: Response, cookie = ''): string {
  const jar = new Map<string, string>();
  for (const pair of cookie.split(/;\s*/).filter(Boolean)) {
    const at = pair.indexOf('=');
    jar.set(pair.slice(0, at), pair.slice(at + 1));
  }
  for (const header of response.headers.getSetCookie()) {
    const [pair = '', ...attributes] = header.split(/;\s*/);
    const at = pair.indexOf('=');
    const name = pair.slice(0, at);
    const value = pair.slice(at + 1);
    if (value === '' || attributes.some((attribute) => /^max-age=0$/i.test(attribute))) jar.delete(name);
    else jar.set(name, value);
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
}
