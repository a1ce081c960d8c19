// After a preset's desired retention or parameters changed, the offer to reschedule its cards — never done by
// itself: how many of its reviewed cards would move, how many fall due on each of the next days now and after
// (settings.previewReschedule), and a button that does it (settings.reschedule). The learner may also check at
// any time.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../components/button';
import { InlineLoading } from '../../components/query-states';
import { toastError } from '../../lib/errors';
import { getLocale, m } from '../../lib/i18n';
import { queryClient } from '../../lib/query-client';
import { toast } from '../../lib/toast';
import { trpc } from '../../lib/trpc';
import type { Preset } from './preset-draft';

const dayName = (date: string) =>
  new Intl.DateTimeFormat(getLocale(), { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' }).format(
    new Date(`${date}T00:00:00Z`),
  );

export function RescheduleOffer({ preset, offered, onDone }: { preset: Preset; offered: boolean; onDone: () => void }) {
  const [asked, setAsked] = useState(false);
  const input = preset.id ? { presetId: preset.id } : {};
  const open = offered || asked;
  const preview = useQuery({ ...trpc.settings.previewReschedule.queryOptions(input), enabled: open });
  const apply = useMutation(
    trpc.settings.reschedule.mutationOptions({
      onSuccess: async ({ changed }) => {
        toast.success(m.settings_reschedule_done({ changed }));
        setAsked(false);
        onDone();
        await queryClient.invalidateQueries({ queryKey: trpc.settings.previewReschedule.pathKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.cards.pathKey() });
      },
      onError: toastError,
    }),
  );
  if (!open) {
    return (
      <div className="border-t border-slate-200 pt-6">
        <Button variant="secondary" onClick={() => setAsked(true)}>
          {m.settings_reschedule_check()}
        </Button>
      </div>
    );
  }
  const found = preview.data;
  // The days worth showing: those with a card due now or after; the last one holds every later day.
  const days = found?.days.filter(({ before, after }) => before > 0 || after > 0) ?? [];
  const lastDate = found?.days.at(-1)?.date;
  return (
    <section
      aria-labelledby="reschedule-heading"
      className="space-y-4 rounded-lg bg-amber-50 px-4 py-4 ring-1 ring-amber-200"
    >
      <h3 id="reschedule-heading" className="text-base font-semibold text-slate-900">
        {m.settings_reschedule_heading()}
      </h3>
      {!found ? (
        <InlineLoading label={m.settings_reschedule_loading()} />
      ) : found.changed === 0 ? (
        <p className="text-sm text-slate-700">{m.settings_reschedule_none()}</p>
      ) : (
        <>
          <p className="text-sm text-slate-700">
            {m.settings_reschedule_text({ changed: found.changed, cards: found.cards })}
          </p>
          <div className="max-h-72 overflow-auto">
            <table className="w-full text-left text-sm">
              <caption className="mb-2 text-left text-xs text-slate-500">{m.settings_reschedule_table()}</caption>
              <thead>
                <tr className="border-b border-amber-200 text-xs text-slate-500">
                  <th scope="col" className="py-1.5 pr-4 font-medium">
                    {m.settings_reschedule_day()}
                  </th>
                  <th scope="col" className="py-1.5 pr-4 font-medium">
                    {m.settings_reschedule_before()}
                  </th>
                  <th scope="col" className="py-1.5 font-medium">
                    {m.settings_reschedule_after()}
                  </th>
                </tr>
              </thead>
              <tbody>
                {days.map((day) => (
                  <tr key={day.date} className="border-b border-amber-100">
                    <th scope="row" className="py-1.5 pr-4 font-normal text-slate-700">
                      {day.date === lastDate ? m.settings_reschedule_later() : dayName(day.date)}
                    </th>
                    <td className="py-1.5 pr-4 tabular-nums">{day.before}</td>
                    <td className={`py-1.5 tabular-nums ${day.after !== day.before ? 'font-semibold' : ''}`}>
                      {day.after}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      <div className="flex flex-wrap gap-3">
        {found && found.changed > 0 && (
          <Button pending={apply.isPending} onClick={() => apply.mutate(input)}>
            {m.settings_reschedule_apply({ changed: found.changed })}
          </Button>
        )}
        <Button
          variant="secondary"
          onClick={() => {
            setAsked(false);
            onDone();
          }}
        >
          {m.settings_reschedule_dismiss()}
        </Button>
      </div>
    </section>
  );
}
