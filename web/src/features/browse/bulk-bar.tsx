// What a selection of the Browse screen can take at once: tags added or removed, archived or back, deleted, due on a
// day or in a range of days, forgotten (new again), moved to a preset, exported. Each change runs as one bulk edit
// whose toast offers Undo (browse-calls.ts); deleting and forgetting are asked first. The selection is the cards
// chosen, or every card the search finds ("all N").
import { SET_DUE_MAX_DAYS } from '@engram/contracts/browse';
import type { ExportFormat } from '@engram/contracts/exports';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import type { Tag } from '../../entities/cards/queries';
import { toastError } from '../../lib/errors';
import { m } from '../../lib/i18n';
import { queryClient } from '../../lib/query-client';
import { toast } from '../../lib/toast';
import { trpc } from '../../lib/trpc';
import { TagPicker } from '../cards';
import { ExportProgress } from '../import';
import { runBulkEdit } from './browse-calls';

/** The cards a bulk edit names: those chosen, or every card `query` finds. */
export type Selection = { cardIds: string[] } | { query: string; count: number };

const countOf = (selection: Selection) => ('cardIds' in selection ? selection.cardIds.length : selection.count);

type Dialog = 'add_tags' | 'remove_tags' | 'set_due' | 'set_preset' | 'export' | 'delete' | 'forget' | null;

function ActionDialog({
  open,
  title,
  submitLabel,
  pending,
  onSubmit,
  onClose,
  children,
}: {
  open: boolean;
  title: string;
  submitLabel: string;
  pending: boolean;
  onSubmit: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (open && element && !element.open) element.showModal();
    if (!open && element?.open) element.close();
  }, [open]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      className="m-auto w-full max-w-md rounded-2xl bg-white p-6 shadow-xl ring-1 ring-slate-200 backdrop:bg-slate-900/40"
    >
      <form onSubmit={submit} className="grid gap-4">
        <h2 id={titleId} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        {children}
        <div className="flex justify-end gap-3">
          <Button variant="secondary" type="button" onClick={onClose}>
            {m.confirm_cancel()}
          </Button>
          <Button type="submit" pending={pending}>
            {submitLabel}
          </Button>
        </div>
      </form>
    </dialog>
  );
}

function DaysField({ label, value, onChange }: { label: string; value: number; onChange: (days: number) => void }) {
  const id = useId();
  return (
    <label htmlFor={id} className="grid gap-1 text-sm font-medium text-slate-700">
      {label}
      <input
        id={id}
        type="number"
        inputMode="numeric"
        min={0}
        max={SET_DUE_MAX_DAYS}
        value={value}
        onChange={(event) =>
          onChange(Math.max(0, Math.min(SET_DUE_MAX_DAYS, Math.floor(Number(event.target.value) || 0))))
        }
        className="w-32 rounded-lg border-0 bg-white px-3 py-2 text-sm shadow-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-600"
      />
    </label>
  );
}

export function BulkBar({ selection, onDone }: { selection: Selection; onDone: () => void }) {
  const [dialog, setDialog] = useState<Dialog>(null);
  const [pending, setPending] = useState(false);
  const [tags, setTags] = useState<Tag[]>([]);
  const [dueFrom, setDueFrom] = useState(0);
  const [dueTo, setDueTo] = useState(0);
  const [presetId, setPresetId] = useState('');
  const [format, setFormat] = useState<Exclude<ExportFormat, 'json'>>('apkg');
  const [exportId, setExportId] = useState<string>();
  const settings = useQuery({ ...trpc.settings.get.queryOptions(), enabled: dialog === 'set_preset' });
  const presets = settings.data?.presets ?? [];
  const count = countOf(selection);
  const target = 'cardIds' in selection ? { cardIds: selection.cardIds } : { query: selection.query };
  const startExport = useMutation(
    trpc.exports.start.mutationOptions({
      onSuccess: ({ exportId: id }) => {
        setExportId(id);
        setDialog(null);
        void queryClient.invalidateQueries({ queryKey: trpc.exports.list.pathKey() });
      },
      onError: toastError,
    }),
  );

  const close = () => {
    setDialog(null);
    setTags([]);
  };
  const run = async (input: Parameters<typeof runBulkEdit>[0]) => {
    setPending(true);
    const ran = await runBulkEdit(input);
    setPending(false);
    if (!ran) return;
    close();
    onDone();
  };

  return (
    <section
      aria-label={m.browse_bulk_label({ count })}
      className="sticky bottom-3 z-10 mt-4 rounded-xl bg-slate-900 px-4 py-3 text-white shadow-lg"
    >
      <p className="text-sm font-medium">{m.browse_selected({ count })}</p>
      <div className="mt-2 flex flex-wrap gap-2">
        <BarButton onClick={() => setDialog('add_tags')}>{m.browse_action_add_tags()}</BarButton>
        <BarButton onClick={() => setDialog('remove_tags')}>{m.browse_action_remove_tags()}</BarButton>
        <BarButton disabled={pending} onClick={() => void run({ action: 'archive', ...target })}>
          {m.browse_action_archive()}
        </BarButton>
        <BarButton disabled={pending} onClick={() => void run({ action: 'unarchive', ...target })}>
          {m.browse_action_unarchive()}
        </BarButton>
        <BarButton onClick={() => setDialog('set_due')}>{m.browse_action_set_due()}</BarButton>
        <BarButton onClick={() => setDialog('forget')}>{m.browse_action_forget()}</BarButton>
        <BarButton onClick={() => setDialog('set_preset')}>{m.browse_action_set_preset()}</BarButton>
        {'cardIds' in selection && (
          <BarButton onClick={() => setDialog('export')}>{m.browse_action_export()}</BarButton>
        )}
        <BarButton danger onClick={() => setDialog('delete')}>
          {m.browse_action_delete()}
        </BarButton>
      </div>
      {exportId && (
        <div className="mt-3 rounded-lg bg-white p-3 text-slate-900">
          <ExportProgress key={exportId} exportId={exportId} />
        </div>
      )}

      <ActionDialog
        open={dialog === 'add_tags' || dialog === 'remove_tags'}
        title={dialog === 'remove_tags' ? m.browse_remove_tags_title({ count }) : m.browse_add_tags_title({ count })}
        submitLabel={dialog === 'remove_tags' ? m.browse_action_remove_tags() : m.browse_action_add_tags()}
        pending={pending}
        onClose={close}
        onSubmit={() => {
          if (tags.length === 0) return toast.error(m.browse_tags_needed());
          if (!dialog) return;
          void run({ action: dialog as 'add_tags' | 'remove_tags', ...target, tagIds: tags.map((tag) => tag.id) });
        }}
      >
        <TagPicker label={m.browse_tags_label()} value={tags} onChange={setTags} />
      </ActionDialog>

      <ActionDialog
        open={dialog === 'set_due'}
        title={m.browse_set_due_title({ count })}
        submitLabel={m.browse_action_set_due()}
        pending={pending}
        onClose={close}
        onSubmit={() =>
          void run({ action: 'set_due', ...target, dueFromDays: dueFrom, dueToDays: Math.max(dueFrom, dueTo) })
        }
      >
        <p className="text-sm text-slate-600">{m.browse_set_due_text()}</p>
        <div className="flex flex-wrap gap-4">
          <DaysField label={m.browse_due_from()} value={dueFrom} onChange={setDueFrom} />
          <DaysField label={m.browse_due_to()} value={Math.max(dueFrom, dueTo)} onChange={setDueTo} />
        </div>
      </ActionDialog>

      <ActionDialog
        open={dialog === 'set_preset'}
        title={m.browse_set_preset_title({ count })}
        submitLabel={m.browse_action_set_preset()}
        pending={pending}
        onClose={close}
        onSubmit={() =>
          presetId ? void run({ action: 'set_preset', ...target, presetId }) : toast.error(m.browse_preset_needed())
        }
      >
        <p className="text-sm text-slate-600">{m.browse_set_preset_text()}</p>
        <label className="grid gap-1 text-sm font-medium text-slate-700">
          {m.browse_preset_label()}
          <select
            value={presetId}
            onChange={(event) => setPresetId(event.target.value)}
            className="rounded-lg border-0 bg-white py-2 pr-8 pl-3 text-sm shadow-sm ring-1 ring-slate-300 ring-inset"
          >
            <option value="">{m.browse_preset_choose()}</option>
            {presets.map((preset) => (
              <option key={preset.id} value={preset.id}>
                {preset.isDefault ? m.browse_preset_default({ name: preset.name }) : preset.name}
              </option>
            ))}
          </select>
        </label>
      </ActionDialog>

      <ActionDialog
        open={dialog === 'export'}
        title={m.browse_export_title({ count })}
        submitLabel={m.browse_action_export()}
        pending={startExport.isPending}
        onClose={close}
        onSubmit={() => 'cardIds' in selection && startExport.mutate({ format, cardIds: selection.cardIds })}
      >
        <fieldset className="grid gap-2 text-sm">
          <legend className="sr-only">{m.export_format_legend()}</legend>
          {(['apkg', 'csv'] as const).map((value) => (
            <label key={value} className="flex items-center gap-2">
              <input type="radio" name="browse-export" checked={format === value} onChange={() => setFormat(value)} />
              {value === 'apkg' ? m.browse_export_apkg() : m.browse_export_csv()}
            </label>
          ))}
        </fieldset>
      </ActionDialog>

      <ConfirmDialog
        open={dialog === 'delete'}
        title={m.browse_delete_title({ count })}
        text={m.browse_delete_text()}
        confirmLabel={m.browse_action_delete()}
        pending={pending}
        onCancel={close}
        onConfirm={() => void run({ action: 'delete', ...target })}
      />
      <ConfirmDialog
        open={dialog === 'forget'}
        title={m.browse_forget_title({ count })}
        text={m.browse_forget_text()}
        confirmLabel={m.browse_action_forget()}
        pending={pending}
        onCancel={close}
        onConfirm={() => void run({ action: 'forget', ...target })}
      />
    </section>
  );
}

function BarButton({
  children,
  onClick,
  disabled,
  danger,
}: {
  children: ReactNode;
  onClick: () => void;
  disabled?: boolean;
  danger?: boolean;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={disabled}
      className={`min-h-9 rounded-lg px-3 py-1.5 text-sm font-medium ring-1 transition disabled:opacity-50 ${
        danger ? 'bg-red-600 ring-red-500 hover:bg-red-500' : 'bg-slate-800 ring-slate-600 hover:bg-slate-700'
      }`}
    >
      {children}
    </button>
  );
}
