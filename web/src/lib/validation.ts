// Client-side checks for the auth and card forms, with the messages of spec §5 in the current language.
// Each returns an error or undefined.
import { NAME_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@engram/contracts/auth';
import { CARD_SIDE_MAX_LENGTH } from '@engram/contracts/cards';
import { m } from './i18n';

export { CARD_SIDE_MAX_LENGTH, PASSWORD_MIN_LENGTH };

// Text, at-sign, text, dot, text, and no whitespace anywhere.
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function validateEmail(email: string): string | undefined {
  if (email.trim() === '') return m.validation_email_required();
  if (!EMAIL_SHAPE.test(email.trim())) return m.validation_email_invalid();
  return undefined;
}

/** Sign-in only needs a password; sign-up (`checkLength`) also enforces the minimum length. */
export function validatePassword(password: string, checkLength = false): string | undefined {
  if (password === '') return m.validation_password_required();
  if (checkLength && password.length < PASSWORD_MIN_LENGTH) {
    return m.validation_password_too_short({ min: PASSWORD_MIN_LENGTH });
  }
  return undefined;
}

export function validateName(name: string): string | undefined {
  if (name.trim() === '') return m.validation_name_required();
  if (name.trim().length > NAME_MAX_LENGTH) return m.validation_name_too_long({ max: NAME_MAX_LENGTH });
  return undefined;
}

const SIDE_MESSAGES = {
  front: { required: m.validation_front_required, tooLong: m.validation_front_too_long },
  back: { required: m.validation_back_required, tooLong: m.validation_back_too_long },
};

export function validateCardSide(side: 'front' | 'back', value: string): string | undefined {
  if (value.trim() === '') return SIDE_MESSAGES[side].required();
  if (value.trim().length > CARD_SIDE_MAX_LENGTH) return SIDE_MESSAGES[side].tooLong({ max: CARD_SIDE_MAX_LENGTH });
  return undefined;
}
