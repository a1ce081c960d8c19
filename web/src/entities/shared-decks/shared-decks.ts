// Shared decks and assignments of an organization, as more than one screen shows them (the organization's learning
// view and the dashboard's assignments): the texts of a target, a due date and a member's progress, and
// subscribing to a shared deck.
import type { AssignmentJson, DeckJson, ProgressJson } from '@engram/gateway/router';
import { useMutation } from '@tanstack/react-query';
import { toastError } from '../../lib/errors';
import { getLocale, m } from '../../lib/i18n';
import { queryClient } from '../../lib/query-client';
import { toast } from '../../lib/toast';
import { trpc } from '../../lib/trpc';

export type { AssignmentJson, DeckJson, ProgressJson };

/** A retention (0..1) as a whole percentage, e.g. "90%"; a dash before there is one. */
export const percent = (value: number | null): string =>
  value === null ? '—' : new Intl.NumberFormat(getLocale(), { style: 'percent' }).format(value);

/** "20 cards learned" or "90% retention". */
export const targetText = (assignment: Pick<AssignmentJson, 'targetKind' | 'targetValue'>): string =>
  assignment.targetKind === 'retention'
    ? m.shared_decks_target_retention({ percent: percent(assignment.targetValue) })
    : m.shared_decks_target_cards({ count: assignment.targetValue });

/** The day an assignment is due, in the reader's language. */
export const dueText = (dueAt: string): string =>
  m.shared_decks_due({ date: new Intl.DateTimeFormat(getLocale(), { dateStyle: 'medium' }).format(new Date(dueAt)) });

/** One's own progress on an assignment: cards learned of the deck, retention, and whether the target is met. */
export function progressText(progress: ProgressJson | null): string {
  if (!progress || progress.reviews === 0) return m.shared_decks_progress_none();
  const learned = m.shared_decks_progress_learned({ learned: progress.cardsLearned, count: progress.cardCount });
  const retention = m.shared_decks_progress_retention({ percent: percent(progress.retention) });
  return `${learned} · ${retention}${progress.targetMet ? ` · ${m.shared_decks_target_met()}` : ''}`;
}

/** After any change to decks, subscriptions or assignments: every orgs list is fetched again. */
export const refreshSharedDecks = () => queryClient.invalidateQueries({ queryKey: trpc.orgs.pathKey() });

/**
 * Subscribing to a deck and ending a subscription. The copies of its cards reach (or leave) the learner's
 * cards a moment later, through events: the cards' lists are marked stale so the next look fetches them.
 */
export function useSubscription() {
  const done = async (message: string) => {
    toast.success(message);
    await Promise.all([refreshSharedDecks(), queryClient.invalidateQueries({ queryKey: trpc.cards.pathKey() })]);
  };
  const subscribe = useMutation(
    trpc.orgs.subscribe.mutationOptions({ onSuccess: () => done(m.shared_decks_subscribed()), onError: toastError }),
  );
  const unsubscribe = useMutation(
    trpc.orgs.unsubscribe.mutationOptions({
      onSuccess: () => done(m.shared_decks_unsubscribed()),
      onError: toastError,
    }),
  );
  return { subscribe, unsubscribe };
}
