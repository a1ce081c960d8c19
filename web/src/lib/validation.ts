// Client-side checks for the auth and card forms, with the messages of spec §5. Each returns an error or undefined.
import { NAME_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@engram/contracts/auth';
import { CARD_SIDE_MAX_LENGTH } from '@engram/contracts/cards';

export { CARD_SIDE_MAX_LENGTH, PASSWORD_MIN_LENGTH };

// Text, at-sign, text, dot, text, and no whitespace anywhere.
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function validateEmail(email: string): string | undefined {
  if (email.trim() === '') return 'Email address is required.';
  if (!EMAIL_SHAPE.test(email.trim())) return 'Email is invalid';
  return undefined;
}

/** Sign-in only needs a password; sign-up (`checkLength`) also enforces the minimum length. */
export function validatePassword(password: string, checkLength = false): string | undefined {
  if (password === '') return 'Password is required.';
  if (checkLength && password.length < PASSWORD_MIN_LENGTH) {
    return `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`;
  }
  return undefined;
}

export function validateName(name: string): string | undefined {
  if (name.trim() === '') return 'Name is required';
  if (name.trim().length > NAME_MAX_LENGTH) return `Name must be at most ${NAME_MAX_LENGTH} characters.`;
  return undefined;
}

export function validateCardSide(label: 'Front' | 'Back', value: string): string | undefined {
  if (value.trim() === '') return `${label} is required`;
  if (value.trim().length > CARD_SIDE_MAX_LENGTH) {
    return `${label} must be at most ${CARD_SIDE_MAX_LENGTH} characters.`;
  }
  return undefined;
}
