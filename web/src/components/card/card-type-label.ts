// The name of each card type, in the current language: the one list the card forms, the card list's badge
// and the Generate screen read.
import type { CardType } from '@engram/contracts/learning';
import { m } from '../../lib/i18n';

const LABELS: Record<CardType, () => string> = {
  basic: m.cards_type_basic,
  reversed: m.cards_type_reversed,
  cloze: m.cards_type_cloze,
  typed: m.cards_type_typed,
  occlusion: m.cards_type_occlusion,
  note: m.cards_type_note,
};

export const cardTypeLabel = (type: CardType) => LABELS[type]();
