// A CSV or TSV file's preview before it is imported: the layout found (delimiter, encoding), its first rows
// in a table with a choice above each column of what it holds (the service's guesses preselected), what keeps
// the choices from importing as they are edited, and the button that starts the import. The table scrolls
// sideways inside its own box, so a wide file never widens a phone's page.
import type { ColumnRole } from '@engram/contracts/imports';
import type { ImportPreviewJson } from '@engram/gateway/router';
import { useId } from 'react';
import { Button } from '../../components/button';
import { hasErrors, useContractForm } from '../../lib/form';
import { m } from '../../lib/i18n';
import { trpc } from '../../lib/trpc';
import { MAPPED_ROLES, mappingOf, mappingProblems, ROLE_NAMES, sidesInFront } from './mapping';
import { refreshImports } from './queries';
import { delimiterName } from './wording';

const ROLE_CHOICES = ['front', 'back', 'tags', 'type', 'ignore'] as const satisfies readonly ColumnRole[];

function ColumnChoice({
  label,
  role,
  onChange,
}: {
  label: string;
  role: ColumnRole;
  onChange: (role: ColumnRole) => void;
}) {
  const id = useId();
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block max-w-56 truncate text-xs font-medium text-slate-600" title={label}>
        {label}
      </label>
      <select
        id={id}
        value={role}
        onChange={(event) => onChange(event.target.value as ColumnRole)}
        className="block w-full min-w-36 rounded-lg border-0 bg-white py-2 pr-8 pl-3 text-sm font-semibold text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-600"
      >
        {ROLE_CHOICES.map((choice) => (
          <option key={choice} value={choice}>
            {ROLE_NAMES[choice]()}
          </option>
        ))}
      </select>
    </div>
  );
}

export function ColumnMapping({
  uploadId,
  name,
  preview,
  onStarted,
  onCancel,
}: {
  uploadId: string;
  name: string;
  preview: ImportPreviewJson;
  onStarted: (importId: string) => void;
  onCancel: () => void;
}) {
  const problemsId = useId();
  const form = useContractForm({
    initial: () => preview.columns.map((column) => column.role),
    check: mappingProblems,
    input: (roles: ColumnRole[]) => ({ uploadId, format: preview.format, mapping: mappingOf(roles) }),
    mutation: trpc.imports.start.mutationOptions(),
    onSaved: ({ importId }) => onStarted(importId),
    invalidate: refreshImports,
  });
  // Shown as the learner chooses, not only after a first try: the guesses usually need no change.
  const problems = mappingProblems(form.draft);
  const choose = (index: number) => (role: ColumnRole) =>
    form.setDraft((roles) => roles.map((each, at) => (at === index ? role : each)));

  return (
    <form onSubmit={form.submit} noValidate aria-labelledby="import-preview-heading" className="space-y-4">
      <div>
        <h2 id="import-preview-heading" className="text-lg font-semibold text-slate-900">
          {m.import_preview_heading()}
        </h2>
        <p className="mt-1 text-sm text-slate-600" data-testid="import-layout">
          {m.import_preview_detected({
            format: preview.format.toUpperCase(),
            encoding: preview.encoding.toUpperCase(),
            delimiter: delimiterName(preview.delimiter),
          })}
        </p>
      </div>
      <div className="overflow-x-auto rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
        <table className="min-w-full text-left text-sm">
          <caption className="sr-only">{m.import_preview_caption({ name })}</caption>
          <thead className="bg-slate-50">
            <tr>
              {preview.columns.map((column) => (
                <th key={column.index} scope="col" className="px-3 py-3 align-bottom font-normal">
                  <ColumnChoice
                    label={column.name || m.import_column({ number: column.index + 1 })}
                    role={form.draft[column.index] ?? 'ignore'}
                    onChange={choose(column.index)}
                  />
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {preview.rows.map((row, rowIndex) => (
              // The preview's rows never change order, and two rows may be alike.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              <tr key={rowIndex}>
                {preview.columns.map((column) => (
                  <td key={column.index} className="px-3 py-2 text-slate-700">
                    <div className="max-w-56 truncate whitespace-nowrap" title={row[column.index]}>
                      {row[column.index] ?? ''}
                    </div>
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div id={problemsId} aria-live="polite">
        {!hasErrors(problems) && sidesInFront(form.draft) && (
          <p
            className="rounded-xl bg-brand-50 px-4 py-3 text-sm text-slate-700 ring-1 ring-brand-100"
            data-testid="import-split"
          >
            {m.import_mapping_split()}
          </p>
        )}
        {hasErrors(problems) && (
          <div className="rounded-xl bg-red-50 px-4 py-3 text-sm text-red-800 ring-1 ring-red-200">
            <p className="font-medium">{m.import_mapping_problems()}</p>
            <ul className="mt-1 list-disc space-y-0.5 pl-5">
              {MAPPED_ROLES.filter((role) => problems[role]).map((role) => (
                <li key={role}>
                  <span className="font-semibold">{ROLE_NAMES[role]()}</span>: {problems[role]}
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <Button
          type="submit"
          pending={form.pending}
          disabled={hasErrors(problems)}
          aria-describedby={hasErrors(problems) ? problemsId : undefined}
          className="max-w-full [overflow-wrap:anywhere]"
        >
          {m.import_start({ name })}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          {m.import_choose_another()}
        </Button>
      </div>
    </form>
  );
}
