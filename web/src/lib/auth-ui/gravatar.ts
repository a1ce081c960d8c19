// The Gravatar picture of an email address: shown when the user has not uploaded an avatar of their own.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

/** Gravatar serves sizes from 1 to 2048 pixels (spec §9). */
export const GRAVATAR_MIN_SIZE = 1;
export const GRAVATAR_MAX_SIZE = 2048;

/**
 * The address of the Gravatar of `email` at `size` pixels (clamped to Gravatar's range). It answers 404 when
 * the address has no Gravatar, so the avatar falls back to the user's initials instead of a stock picture.
 */
export function gravatarUrl(email: string, size: number): string {
  const hash = bytesToHex(sha256(new TextEncoder().encode(email.trim().toLowerCase())));
  const pixels = Math.min(Math.max(Math.round(size), GRAVATAR_MIN_SIZE), GRAVATAR_MAX_SIZE);
  return `https://gravatar.com/avatar/${hash}?s=${pixels}&d=404`;
}
