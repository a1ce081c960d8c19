// What an authenticator app computes: the RFC 6238 time-based code for an `otpauth://totp/...` URI or a
// base32 secret (SHA-1, 30-second steps, 6 digits unless the URI says otherwise).
import { createHmac } from 'node:crypto';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32Decode(text: string): Buffer {
  const clean = text.replace(/=+$/, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error(`not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** The secret an `otpauth://` URI carries (base32). */
export function totpSecretOf(uri: string): string {
  const secret = new URL(uri).searchParams.get('secret');
  if (!secret) throw new Error('no secret in the otpauth URI');
  return secret;
}

/** The code an authenticator shows at `at` (default now) for a base32 secret or an otpauth URI. */
export function totpCode(secretOrUri: string, at = Date.now()): string {
  const uri = secretOrUri.startsWith('otpauth://') ? new URL(secretOrUri) : undefined;
  const secret = uri ? totpSecretOf(secretOrUri) : secretOrUri;
  const digits = Number(uri?.searchParams.get('digits') ?? 6);
  const period = Number(uri?.searchParams.get('period') ?? 30);
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / period)));
  const hmac = createHmac('sha1', base32Decode(secret)).update(counter).digest();
  const offset = (hmac.at(-1) ?? 0) & 0x0f;
  const binary = hmac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}
