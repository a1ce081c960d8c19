// Client-side checks for the card forms, in the current language. Each returns an error or undefined.
import { CARD_SIDE_MAX_LENGTH } from '@engram/contracts/cards';
import { m } from './i18n';

export { CARD_SIDE_MAX_LENGTH };

const SIDE_MESSAGES = {
  front: { required: m.validation_front_required, tooLong: m.validation_front_too_long },
  back: { required: m.validation_back_required, tooLong: m.validation_back_too_long },
};

export function validateCardSide(side: 'front' | 'back', value: string): string | undefined {
  if (value.trim() === '') return SIDE_MESSAGES[side].required();
  if (value.trim().length > CARD_SIDE_MAX_LENGTH) return SIDE_MESSAGES[side].tooLong({ max: CARD_SIDE_MAX_LENGTH });
  return undefined;
}
