// The credentials of the S3 stand-in: made per installation (npm start keeps them in .data/dev-secrets.json
// beside the other development secrets; each test stack makes its own) and given to the service by its
// configuration, never written in the code. A published pair would let anyone who reaches the stand-in's
// port read and write every learner's files.
import { randomBytes } from 'node:crypto';

/** The one pair of credentials a stand-in accepts, its installation's own. */
export interface StandInCredentials {
  accessKeyId: string;
  secretAccessKey: string;
}

/** An access key id as AWS writes them: 16 to 128 upper-case letters and digits. */
export const STAND_IN_ACCESS_KEY_ID = /^[A-Z0-9]{16,128}$/;
/** The shortest secret a stand-in takes (AWS's own are 40 characters). */
export const STAND_IN_SECRET_MIN_LENGTH = 32;

/** A new pair for an installation: 20 characters of key id and 40 of secret, as AWS's are. */
export function generateStandInCredentials(): StandInCredentials {
  return {
    accessKeyId: `ENGRAM${randomBytes(7).toString('hex').toUpperCase()}`,
    secretAccessKey: randomBytes(30).toString('base64url'),
  };
}

/** Throws unless `credentials` are a pair made as generateStandInCredentials makes them. */
export function assertStandInCredentials(credentials: StandInCredentials): void {
  if (
    !STAND_IN_ACCESS_KEY_ID.test(credentials.accessKeyId) ||
    credentials.secretAccessKey.length < STAND_IN_SECRET_MIN_LENGTH
  ) {
    throw new Error(
      'the S3 stand-in needs credentials made for this installation (MEDIA_STANDIN_ACCESS_KEY_ID and MEDIA_STANDIN_SECRET_ACCESS_KEY)',
    );
  }
}
