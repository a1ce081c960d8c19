// The dashboard's count of the collection, in words.
import { m } from '../../lib/i18n';

/**
 * The collection's size: its cards, and also its questions (review items) when they are more (a reversed card
 * is practised both ways, a cloze card once per deletion), e.g. "12 cards · 17 questions in all": a count of the
 * whole collection, not of what is due, so it never reads as a rival of the "due today" figure beside it.
 */
export function cardsAndItems(cards: number, items: number): string {
  if (items === cards) return m.dashboard_cards_total({ total: cards });
  return cards === 1 ? m.dashboard_cards_and_items_one({ items }) : m.dashboard_cards_and_items({ cards, items });
}
