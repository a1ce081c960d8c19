// /onboarding: confirm the detected timezone, pick a daily goal, optionally write a few first cards, then
// settings.completeOnboarding sets onboardedAt and the refreshed session lets the guard open the page the
// learner was headed for (redirectTo, if a page of this site), else the dashboard.
import { completeOnboardingInput, DEFAULT_SETTINGS } from '@engram/contracts/learning';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { Button } from '../../components/button';
import { DAILY_GOAL, DailyGoalField } from '../../components/daily-goal-field';
import { TextField } from '../../components/text-field';
import { TimezoneField } from '../../components/timezone-field';
import { detectedTimeZone, type FieldErrors, fieldErrors, parseNumber, useContractForm } from '../../lib/form';
import { m } from '../../lib/i18n';
import { safeRedirectTarget } from '../../lib/redirects';
import { refreshSession } from '../../lib/session';
import { trpcClient } from '../../lib/trpc';
import { cardProblems } from '../../lib/validation';

const onboardingRoute = getRouteApi('/protected/onboarding');

const FIRST_CARD_SLOTS = 3;
type CardSlot = { slot: number; front: string; back: string };
type Draft = { timezone: string; dailyGoal: string; cards: CardSlot[] };
type Field = 'timezone' | 'dailyGoal' | `${'front' | 'back'}-${number}`;

const MESSAGES = {
  timezone: m.settings_timezone_invalid,
  dailyGoal: () => m.settings_daily_goal_invalid(DAILY_GOAL),
};
const emptySlots = (): CardSlot[] =>
  Array.from({ length: FIRST_CARD_SLOTS }, (_, slot) => ({ slot, front: '', back: '' }));
const written = (card: CardSlot) => card.front.trim() !== '' || card.back.trim() !== '';
const schedule = (draft: Draft) => ({ timezone: draft.timezone.trim(), dailyGoal: parseNumber(draft.dailyGoal) });
/** What onboarding saves: the schedule, and the first cards written (trimmed). */
type Finish = { settings: ReturnType<typeof schedule>; cards: { front: string; back: string }[] };

/** The schedule by the contract's schema; a first card is optional: a slot with both sides empty is
 * skipped, a half-written one is an error (its fields named as the inputs are, front-0, back-0, ...). */
function onboardingProblems(draft: Draft): FieldErrors<Field> {
  const errors: FieldErrors<Field> = fieldErrors(completeOnboardingInput, schedule(draft), MESSAGES);
  for (const [index, card] of draft.cards.entries()) {
    if (!written(card)) continue;
    const { front, back } = cardProblems({ type: 'basic', ...card });
    if (front) errors[`front-${index}`] = front;
    if (back) errors[`back-${index}`] = back;
  }
  return errors;
}

export function OnboardingScreen() {
  const navigate = useNavigate();
  const { redirectTo } = onboardingRoute.useSearch();
  const detected = detectedTimeZone();
  const form = useContractForm({
    initial: (): Draft => ({
      timezone: detected,
      dailyGoal: String(DEFAULT_SETTINGS.dailyGoal),
      cards: emptySlots(),
    }),
    check: onboardingProblems,
    input: (draft): Finish => ({
      settings: schedule(draft),
      cards: draft.cards.filter(written).map((card) => ({ front: card.front.trim(), back: card.back.trim() })),
    }),
    mutation: {
      mutationFn: async ({ settings, cards }: Finish) => {
        if (cards.length > 0) {
          await trpcClient.cards.createMany.mutate({ cards });
          // Saved: a retry after a failure in the next step must not add them a second time.
          form.setDraft((current) => ({ ...current, cards: emptySlots() }));
        }
        await trpcClient.settings.completeOnboarding.mutate(settings);
        await refreshSession();
      },
    },
    onSaved: () => navigate({ href: safeRedirectTarget(redirectTo) }),
  });
  const { draft, errors, set } = form;

  const setCard = (index: number, side: 'front' | 'back', value: string) =>
    form.setDraft((current) => ({
      ...current,
      cards: current.cards.map((card, i) => (i === index ? { ...card, [side]: value } : card)),
    }));

  return (
    <main id="main" tabIndex={-1} className="mx-auto max-w-2xl px-6 py-10">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{m.onboarding_title()}</h1>
      <p className="mt-1 text-sm text-slate-600">{m.onboarding_intro()}</p>
      <form onSubmit={form.submit} noValidate className="mt-8 space-y-8">
        <section className="space-y-4 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
          <h2 className="text-lg font-semibold text-slate-900">{m.onboarding_schedule_heading()}</h2>
          <TimezoneField
            label={m.settings_timezone()}
            value={draft.timezone}
            onChange={set('timezone')}
            hint={m.onboarding_timezone_detected({ timezone: detected })}
            error={errors.timezone}
          />
          <DailyGoalField value={draft.dailyGoal} onChange={set('dailyGoal')} error={errors.dailyGoal} />
        </section>
        <section className="space-y-4 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
          <div>
            <h2 className="text-lg font-semibold text-slate-900">{m.onboarding_cards_heading()}</h2>
            <p className="mt-1 text-sm text-slate-500">{m.onboarding_cards_text()}</p>
          </div>
          {draft.cards.map((card, index) => (
            <fieldset key={card.slot} className="grid gap-3 sm:grid-cols-2">
              <legend className="sr-only">{m.onboarding_card_legend({ number: index + 1 })}</legend>
              <TextField
                label={m.onboarding_card_front({ number: index + 1 })}
                name={`front-${index}`}
                value={card.front}
                onChange={(value) => setCard(index, 'front', value)}
                error={errors[`front-${index}`]}
              />
              <TextField
                label={m.onboarding_card_back({ number: index + 1 })}
                name={`back-${index}`}
                value={card.back}
                onChange={(value) => setCard(index, 'back', value)}
                error={errors[`back-${index}`]}
              />
            </fieldset>
          ))}
        </section>
        <Button type="submit" pending={form.pending} className="w-full py-3">
          {m.onboarding_submit()}
        </Button>
      </form>
    </main>
  );
}
