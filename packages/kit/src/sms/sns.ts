// Text messages through Amazon SNS (the official SDK): one Publish call per message, straight to the phone
// number, as a transactional SMS (SNS delivers those first and retries them), with a sender ID where the
// installation has one (countries that allow it show it instead of a number). Credentials come from the
// SDK's standard chain unless given. A refusal (an opted-out or invalid number, a spending limit reached, a
// throttled or unreachable endpoint after the SDK's retries) is logged and becomes an SmsDeliveryError.
import { PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import type { Logger } from '../logger.js';
import { SmsDeliveryError, type SmsMessage, type SmsSender } from './sender.js';

export interface SnsSettings {
  region: string;
  /** Another endpoint than AWS's public one: a VPC endpoint, or a test's fake. */
  endpoint?: string | undefined;
  /** The alphanumeric sender ID shown where a country allows one (1–11 letters and digits). */
  senderId?: string | undefined;
  /** Static credentials; without them the SDK's default chain decides. */
  credentials?: { accessKeyId: string; secretAccessKey: string } | undefined;
}

/** Every Publish call is bounded: connecting, then the whole answer. */
const CONNECT_TIMEOUT_MS = 3_000;
const REQUEST_TIMEOUT_MS = 10_000;

/** The last digits of a number, enough to tell messages apart in a log without writing the number down. */
export const maskedNumber = (to: string) => `${'•'.repeat(Math.max(0, to.length - 4))}${to.slice(-4)}`;

export function snsSender(settings: SnsSettings, logger: Logger): SmsSender & { close(): void } {
  const client = new SNSClient({
    region: settings.region,
    ...(settings.endpoint && { endpoint: settings.endpoint }),
    ...(settings.credentials && { credentials: settings.credentials }),
    requestHandler: { connectionTimeout: CONNECT_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS },
  });
  return {
    kind: 'sns',
    async send(message: SmsMessage) {
      const command = new PublishCommand({
        PhoneNumber: message.to,
        Message: message.text,
        MessageAttributes: {
          'AWS.SNS.SMS.SMSType': { DataType: 'String', StringValue: 'Transactional' },
          ...(settings.senderId && {
            'AWS.SNS.SMS.SenderID': { DataType: 'String', StringValue: settings.senderId },
          }),
        },
      });
      const to = maskedNumber(message.to);
      try {
        const { MessageId } = await client.send(command);
        logger.info({ sms: { to, messageId: MessageId } }, 'text message sent through SNS');
      } catch (error) {
        const name = error instanceof Error ? error.name : 'Error';
        logger.error({ err: error, sms: { to } }, 'SNS did not send a text message');
        throw new SmsDeliveryError(`SNS did not send the text message (${name})`, { cause: error });
      }
    },
    close: () => client.destroy(),
  };
}
