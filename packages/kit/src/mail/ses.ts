// Mail through Amazon SES (API v2, the official SDK): one SendEmail call per message, with simple
// content (subject, text and HTML bodies). Credentials come from the SDK's standard chain (environment,
// IAM role of the pod) unless given. A refusal (MessageRejected, a throttled or unreachable endpoint
// after the SDK's retries) is logged with the recipient and becomes a MailDeliveryError for the caller.
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import type { Logger } from '../logger.js';
import { MailDeliveryError, type Mailer, type MailMessage } from './mailer.js';

export interface SesSettings {
  region: string;
  /** The sender, e.g. `Engram <no-reply@example.com>`; SES must have it verified. */
  from: string;
  /** Another endpoint than AWS's public one: a VPC endpoint, or a test's fake. */
  endpoint?: string | undefined;
  /** Static credentials; without them the SDK's default chain decides. */
  credentials?: { accessKeyId: string; secretAccessKey: string } | undefined;
}

/** Every SendEmail call is bounded: connecting, then the whole answer. */
const CONNECT_TIMEOUT_MS = 3_000;
const REQUEST_TIMEOUT_MS = 10_000;
const UTF8 = 'UTF-8';

export function sesMailer(settings: SesSettings, logger: Logger): Mailer & { close(): void } {
  const client = new SESv2Client({
    region: settings.region,
    ...(settings.endpoint && { endpoint: settings.endpoint }),
    ...(settings.credentials && { credentials: settings.credentials }),
    requestHandler: { connectionTimeout: CONNECT_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS },
  });
  return {
    kind: 'ses',
    async send(message: MailMessage) {
      const command = new SendEmailCommand({
        FromEmailAddress: settings.from,
        Destination: { ToAddresses: [message.to] },
        Content: {
          Simple: {
            Subject: { Data: message.subject, Charset: UTF8 },
            Body: { Text: { Data: message.text, Charset: UTF8 }, Html: { Data: message.html, Charset: UTF8 } },
          },
        },
      });
      try {
        const { MessageId } = await client.send(command);
        logger.info({ mail: { to: message.to, messageId: MessageId } }, 'mail sent through SES');
      } catch (error) {
        const name = error instanceof Error ? error.name : 'Error';
        logger.error({ err: error, mail: { to: message.to, subject: message.subject } }, 'SES did not send a mail');
        throw new MailDeliveryError(`SES did not send the mail (${name})`, { cause: error });
      }
    },
    close: () => client.destroy(),
  };
}
