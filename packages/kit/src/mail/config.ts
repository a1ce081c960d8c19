// The variables of a service that sends mail, and the rules across them: SES when SES_REGION is set
// (MAIL_FROM then required), the dev mailbox otherwise — never in production, where a missing SES
// setting stops the service at start-up like any other configuration error.
import { z } from 'zod';
import { awsCredentialsOf, ConfigError, vars } from '../config.js';
import type { SesSettings } from './ses.js';

export const mailVars = {
  /** The AWS region of SES (e.g. eu-west-1). Set: mail goes through SES; unset: into the dev mailbox. */
  SES_REGION: vars.awsRegion.optional(),
  /** Another SES endpoint than AWS's public one (a VPC endpoint). */
  SES_ENDPOINT: vars.url(['http', 'https']).optional(),
  /** The sender of every mail, e.g. `Engram <no-reply@example.com>` (verified in SES). */
  MAIL_FROM: z.string().min(3).optional(),
  /** Static AWS credentials for SES; without them the SDK's chain decides (an IAM role, a profile). */
  AWS_ACCESS_KEY_ID: z.string().min(1).optional(),
  AWS_SECRET_ACCESS_KEY: z.string().min(1).optional(),
};

type MailConfig = z.infer<z.ZodObject<typeof mailVars>> & { NODE_ENV: string };

/** SES settings, or null for the dev mailbox; throws a ConfigError naming what is missing. */
export function mailSettingsOf(service: string, config: MailConfig): SesSettings | null {
  const problems: string[] = [];
  if (!config.SES_REGION) {
    if (config.NODE_ENV === 'production') {
      problems.push('SES_REGION: is required in production (the dev mailbox never runs there)');
    }
    if (config.SES_ENDPOINT) problems.push('SES_ENDPOINT: is set, but SES_REGION is not');
  } else if (!config.MAIL_FROM) {
    problems.push('MAIL_FROM: is required when SES_REGION is set (the sender SES has verified)');
  }
  if (Boolean(config.AWS_ACCESS_KEY_ID) !== Boolean(config.AWS_SECRET_ACCESS_KEY)) {
    problems.push('AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY: must be set together, or neither');
  }
  if (problems.length > 0) throw new ConfigError(service, problems);
  if (!config.SES_REGION || !config.MAIL_FROM) return null;
  return {
    region: config.SES_REGION,
    from: config.MAIL_FROM,
    endpoint: config.SES_ENDPOINT,
    credentials: awsCredentialsOf(config),
  };
}
