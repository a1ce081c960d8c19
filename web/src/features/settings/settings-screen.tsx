// /settings: timezone, day start, maximum interval, (re)learning steps, fuzz, load balancing, easy days and the
// daily goal, checked with the contract's schema field by field (settings-draft.ts) before settings.update
// saves them. The form is two sections: the day, and scheduling. Below it, the learner's presets: their options
// (the desired retention among them), memory model, simulator and rescheduling (presets-section.tsx); last, how many
// days of cards this device keeps for practice without the network (offline-section.tsx).
import type { Settings } from '@engram/contracts/learning';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { Button } from '../../components/button';
import { NeedsNetwork } from '../../components/needs-network';
import { InlineError, InlineLoading } from '../../components/query-states';
import { useContractForm } from '../../lib/form';
import { m } from '../../lib/i18n';
import { queryClient } from '../../lib/query-client';
import { trpc } from '../../lib/trpc';
import { DaySection } from './day-section';
import { OfflineSection } from './offline-section';
import { PresetsSection } from './presets-section';
import { SchedulingSection } from './scheduling-section';
import { fromDraft, settingsProblems, toDraft } from './settings-draft';

function SettingsForm({ initial }: { initial: Settings }) {
  // Saved settings stay in the form as they are, their errors shown again as soon as one is wrong.
  const form = useContractForm({
    initial: () => toDraft(initial),
    check: settingsProblems,
    input: fromDraft,
    mutation: trpc.settings.update.mutationOptions(),
    saved: () => m.settings_saved(),
    invalidate: async () => {
      await queryClient.invalidateQueries({ queryKey: trpc.settings.pathKey() });
      await queryClient.invalidateQueries({ queryKey: trpc.cards.pathKey() });
    },
  });

  return (
    <form onSubmit={form.submit} noValidate className="space-y-6">
      <DaySection form={form} />
      <SchedulingSection form={form} />
      <Button type="submit" pending={form.pending}>
        {m.settings_save()}
      </Button>
    </form>
  );
}

const settingsRoute = getRouteApi('/protected/settings');

export function SettingsScreen() {
  const { session } = settingsRoute.useRouteContext();
  const settings = useQuery(trpc.settings.get.queryOptions());
  return (
    <main id="main" tabIndex={-1} className="mx-auto max-w-3xl px-6 py-10">
      <NeedsNetwork />
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{m.settings_title()}</h1>
      <p className="mt-1 mb-8 text-sm text-slate-600">{m.settings_intro()}</p>
      {settings.isPending ? (
        <InlineLoading label={m.settings_loading()} />
      ) : settings.isError ? (
        <InlineError message={m.settings_load_failed()} onRetry={() => void settings.refetch()} />
      ) : (
        <div className="space-y-10">
          <SettingsForm initial={settings.data} />
          <PresetsSection presets={settings.data.presets} />
          <OfflineSection userId={session.user.id} />
        </div>
      )}
    </main>
  );
}
