// /onboarding: confirm the detected timezone, pick a daily goal, optionally write a few first cards, then
// settings.completeOnboarding sets onboardedAt and the refreshed session lets the guard open the page the
// learner was headed for (redirectTo, if a page of this site), else the dashboard.
import { completeOnboardingInput, DEFAULT_SETTINGS, settingsFields } from '@engram/contracts/learning';
import { useMutation } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { Button } from '../../components/button';
import { TextField } from '../../components/text-field';
import { TimezoneField } from '../../components/timezone-field';
import { toastError } from '../../lib/errors';
import { bounds, detectedTimeZone, fieldErrors, hasErrors, parseNumber } from '../../lib/form';
import { m } from '../../lib/i18n';
import { safeRedirectTarget } from '../../lib/redirects';
import { refreshSession } from '../../lib/session';
import { trpcClient } from '../../lib/trpc';
import { validateCardSide } from '../../lib/validation';

const onboardingRoute = getRouteApi('/protected/onboarding');

const FIRST_CARD_SLOTS = 3;
type Draft = { slot: number; front: string; back: string };
const GOAL = bounds(settingsFields.dailyGoal);
const MESSAGES = {
  timezone: m.settings_timezone_invalid,
  dailyGoal: () => m.settings_daily_goal_invalid(GOAL),
};
const emptyDrafts = (): Draft[] =>
  Array.from({ length: FIRST_CARD_SLOTS }, (_, slot) => ({ slot, front: '', back: '' }));

/** A first card is optional: a slot with both sides empty is skipped, a half-written one is an error. */
function draftError(draft: Draft, side: 'front' | 'back'): string | undefined {
  if (draft.front.trim() === '' && draft.back.trim() === '') return undefined;
  return validateCardSide(side, draft[side]);
}

export function OnboardingScreen() {
  const navigate = useNavigate();
  const { redirectTo } = onboardingRoute.useSearch();
  const detected = detectedTimeZone();
  const [timezone, setTimezone] = useState(detected);
  const [dailyGoal, setDailyGoal] = useState(String(DEFAULT_SETTINGS.dailyGoal));
  const [drafts, setDrafts] = useState(emptyDrafts);
  const [submitted, setSubmitted] = useState(false);

  const values = { timezone: timezone.trim(), dailyGoal: parseNumber(dailyGoal) };
  const errors = submitted ? fieldErrors(completeOnboardingInput, values, MESSAGES) : {};
  const draftErrors = drafts.map((draft) => ({
    front: submitted ? draftError(draft, 'front') : undefined,
    back: submitted ? draftError(draft, 'back') : undefined,
  }));

  const finish = useMutation({
    mutationFn: async () => {
      const cards = drafts
        .filter((draft) => draft.front.trim() !== '' || draft.back.trim() !== '')
        .map((draft) => ({ front: draft.front.trim(), back: draft.back.trim() }));
      if (cards.length > 0) {
        await trpcClient.cards.createMany.mutate({ cards });
        // Saved: a retry after a failure in the next step must not add them a second time.
        setDrafts(emptyDrafts());
      }
      await trpcClient.settings.completeOnboarding.mutate(values);
      await refreshSession();
    },
    onSuccess: () => navigate({ href: safeRedirectTarget(redirectTo) }),
    onError: toastError,
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitted(true);
    const found = fieldErrors(completeOnboardingInput, values, MESSAGES);
    const draftsInvalid = drafts.some((draft) => draftError(draft, 'front') || draftError(draft, 'back'));
    if (hasErrors(found) || draftsInvalid) return;
    finish.mutate();
  }

  const setDraft = (index: number, side: 'front' | 'back', value: string) =>
    setDrafts((current) => current.map((draft, i) => (i === index ? { ...draft, [side]: value } : draft)));

  return (
    <main id="main" tabIndex={-1} className="mx-auto max-w-2xl px-6 py-10">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{m.onboarding_title()}</h1>
      <p className="mt-1 text-sm text-slate-600">{m.onboarding_intro()}</p>
      <form onSubmit={submit} noValidate className="mt-8 space-y-8">
        <section className="space-y-4 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
          <h2 className="text-lg font-semibold text-slate-900">{m.onboarding_schedule_heading()}</h2>
          <TimezoneField
            label={m.settings_timezone()}
            value={timezone}
            onChange={setTimezone}
            hint={m.onboarding_timezone_detected({ timezone: detected })}
            error={errors.timezone}
          />
          <TextField
            label={m.settings_daily_goal()}
            name="dailyGoal"
            type="number"
            inputMode="numeric"
            min={GOAL.min}
            max={GOAL.max}
            value={dailyGoal}
            onChange={setDailyGoal}
            hint={m.settings_daily_goal_hint(GOAL)}
            error={errors.dailyGoal}
          />
        </section>
        <section className="space-y-4 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
          <div>
            <h2 className="text-lg font-semibold text-slate-900">{m.onboarding_cards_heading()}</h2>
            <p className="mt-1 text-sm text-slate-500">{m.onboarding_cards_text()}</p>
          </div>
          {drafts.map((draft, index) => (
            <fieldset key={draft.slot} className="grid gap-3 sm:grid-cols-2">
              <legend className="sr-only">{m.onboarding_card_legend({ number: index + 1 })}</legend>
              <TextField
                label={m.onboarding_card_front({ number: index + 1 })}
                name={`front-${index}`}
                value={draft.front}
                onChange={(value) => setDraft(index, 'front', value)}
                error={draftErrors[index]?.front}
              />
              <TextField
                label={m.onboarding_card_back({ number: index + 1 })}
                name={`back-${index}`}
                value={draft.back}
                onChange={(value) => setDraft(index, 'back', value)}
                error={draftErrors[index]?.back}
              />
            </fieldset>
          ))}
        </section>
        <Button type="submit" pending={finish.isPending} className="w-full py-3">
          {m.onboarding_submit()}
        </Button>
      </form>
    </main>
  );
}
