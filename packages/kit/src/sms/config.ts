// The variables of a service that sends text messages, and the rules across them: SNS when SNS_REGION is
// set, the dev mailbox otherwise outside production. In production without SNS there is no sender: what
// needs one (phone numbers) is off, and the service says so at start-up; SMS is an option of an
// installation, not a requirement like mail.
import { z } from 'zod';
import { awsCredentialsOf, ConfigError, vars } from '../config.js';
import type { SnsSettings } from './sns.js';

export const smsVars = {
  /** The AWS region of SNS (e.g. eu-west-1). Set: text messages go through SNS. */
  SNS_REGION: vars.awsRegion.optional(),
  /** Another SNS endpoint than AWS's public one (a VPC endpoint). */
  SNS_ENDPOINT: vars.url(['http', 'https']).optional(),
  /** The sender ID shown where a country allows one: 1 to 11 letters and digits, at least one letter. */
  SMS_SENDER_ID: z
    .string()
    .regex(/^(?=.*[A-Za-z])[A-Za-z0-9]{1,11}$/, 'must be 1 to 11 letters and digits, with at least one letter')
    .optional(),
};

type SmsConfig = z.infer<z.ZodObject<typeof smsVars>> & {
  NODE_ENV: string;
  AWS_ACCESS_KEY_ID?: string | undefined;
  AWS_SECRET_ACCESS_KEY?: string | undefined;
};

/** Where text messages go: through SNS, into the dev mailbox, or nowhere (production without SNS). */
export type SmsRoute = { kind: 'sns'; sns: SnsSettings } | { kind: 'dev-mailbox' } | { kind: 'none' };

/** The route for this configuration; throws a ConfigError naming what is inconsistent. */
export function smsRouteOf(service: string, config: SmsConfig): SmsRoute {
  if (!config.SNS_REGION) {
    const problems = [
      ...(config.SNS_ENDPOINT ? ['SNS_ENDPOINT: is set, but SNS_REGION is not'] : []),
      ...(config.SMS_SENDER_ID ? ['SMS_SENDER_ID: is set, but SNS_REGION is not'] : []),
    ];
    if (problems.length > 0) throw new ConfigError(service, problems);
    return config.NODE_ENV === 'production' ? { kind: 'none' } : { kind: 'dev-mailbox' };
  }
  return {
    kind: 'sns',
    sns: {
      region: config.SNS_REGION,
      endpoint: config.SNS_ENDPOINT,
      senderId: config.SMS_SENDER_ID,
      credentials: awsCredentialsOf(config),
    },
  };
}
