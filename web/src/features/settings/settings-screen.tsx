// /settings, in five sections, one shown at a time (?section=, a tab each): the day (timezone, day start, daily
// goal) and scheduling (maximum interval, (re)learning steps, fuzz, load balancing, easy days), one form checked with
// the contract's schema field by field (settings-draft.ts) and saved by settings.update with the one Save of the
// section shown (a change made in the other section and not yet saved goes with it); the learner's presets, each
// saved on its own: their options (the desired retention among them), memory model, simulator and rescheduling
// (presets-section.tsx); the note types the learner makes notes of (note-types-section.tsx); and this device: how
// many days of cards it keeps for practice without the network (offline-section.tsx).
import type { Settings } from '@engram/contracts/learning';
import { SETTINGS_SECTIONS, type SettingsSectionName } from '@engram/contracts/search';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { Button } from '../../components/button';
import { NeedsNetwork } from '../../components/needs-network';
import { InlineError, InlineLoading } from '../../components/query-states';
import { useContractForm } from '../../lib/form';
import { m } from '../../lib/i18n';
import { queryClient } from '../../lib/query-client';
import { trpc } from '../../lib/trpc';
import { DaySection } from './day-section';
import { NoteTypesSection } from './note-types-section';
import { OfflineSection } from './offline-section';
import { PresetsSection } from './presets-section';
import { SchedulingSection } from './scheduling-section';
import { fromDraft, settingsProblems, toDraft } from './settings-draft';

function SettingsForm({ initial, section }: { initial: Settings; section: 'day' | 'scheduling' }) {
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
      {section === 'day' ? <DaySection form={form} /> : <SchedulingSection form={form} />}
      <Button type="submit" pending={form.pending}>
        {m.settings_save()}
      </Button>
    </form>
  );
}

const settingsRoute = getRouteApi('/protected/settings');

const SECTION_LABELS: Record<SettingsSectionName, () => string> = {
  day: m.settings_day_heading,
  scheduling: m.settings_scheduling_heading,
  presets: m.settings_presets_heading,
  'note-types': m.note_types_heading,
  device: m.settings_section_device,
};

/** A link per section, the one shown marked; two to a row on a phone, one row from a tablet on. */
function SectionLinks({ shown }: { shown: SettingsSectionName }) {
  return (
    <nav aria-label={m.settings_sections_label()} className="mb-6">
      <ul className="grid grid-cols-2 gap-1 rounded-lg bg-slate-100 p-1 sm:grid-cols-5">
        {SETTINGS_SECTIONS.map((name) => (
          <li key={name}>
            <Link
              to="/settings"
              search={name === SETTINGS_SECTIONS[0] ? {} : { section: name }}
              // Marked current (aria-current) by the router when the search is exactly this section's.
              activeOptions={{ exact: true }}
              className={`block rounded-md px-3 py-2 text-center text-sm font-medium transition-colors ${
                name === shown ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900'
              }`}
            >
              {SECTION_LABELS[name]()}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function SettingsScreen() {
  const { session } = settingsRoute.useRouteContext();
  const shown = settingsRoute.useSearch().section ?? SETTINGS_SECTIONS[0];
  const settings = useQuery(trpc.settings.get.queryOptions());
  return (
    <main id="main" tabIndex={-1} className="mx-auto max-w-3xl px-6 py-10">
      <NeedsNetwork />
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{m.settings_title()}</h1>
      <p className="mt-1 mb-6 text-sm text-slate-600">{m.settings_intro()}</p>
      <SectionLinks shown={shown} />
      {settings.isPending ? (
        <InlineLoading label={m.settings_loading()} />
      ) : settings.isError ? (
        <InlineError message={m.settings_load_failed()} onRetry={() => void settings.refetch()} />
      ) : (
        <>
          {/* Kept while another section shows, so a change not yet saved is still there on coming back. */}
          <div hidden={shown !== 'day' && shown !== 'scheduling'}>
            <SettingsForm initial={settings.data} section={shown === 'scheduling' ? 'scheduling' : 'day'} />
          </div>
          {shown === 'presets' && <PresetsSection presets={settings.data.presets} />}
          {shown === 'note-types' && <NoteTypesSection />}
          {shown === 'device' && <OfflineSection userId={session.user.id} />}
        </>
      )}
    </main>
  );
}
