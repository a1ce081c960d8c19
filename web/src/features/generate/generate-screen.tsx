// "/generate": from the learner's notes to cards. The form on the left; on the right the usage figure and
// the proposals, appearing one by one while they stream (with a progress bar), each editable, selectable
// and taggable; then "Save N cards" puts the chosen ones into the collection in one go. Until saved or
// discarded ("Discard", after a confirmation) the proposals are a draft that comes back after leaving the
// page or reloading it, with a note saying so.
import { useMutation } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useState } from 'react';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { NeedsNetwork } from '../../components/needs-network';
import { refreshCards } from '../../entities/cards/queries';
import { UsageFigure } from '../../entities/generation/usage-figure';
import { toastError } from '../../lib/errors';
import { m } from '../../lib/i18n';
import { toast } from '../../lib/toast';
import { cardProblems } from '../../lib/validation';
import type { Draft } from './drafts';
import { GenerateForm } from './generate-form';
import { GenerationProgress } from './generation-progress';
import { ProposalCard } from './proposal-card';
import { saveDrafts } from './save-drafts';
import { useGeneration } from './use-generation';

/** The first problem of the chosen drafts, in words, or undefined when all can be saved. */
function problemOf(drafts: Draft[]): string | undefined {
  for (const [index, draft] of drafts.entries()) {
    const errors = cardProblems(draft);
    const problem = errors.front ?? (draft.type === 'cloze' ? undefined : errors.back);
    if (problem) return m.generate_invalid_card({ number: index + 1, problem });
  }
  return undefined;
}

const generateRoute = getRouteApi('/protected/generate');

export function GenerateScreen() {
  const { session } = generateRoute.useRouteContext();
  const generation = useGeneration(session.user.id);
  const [discarding, setDiscarding] = useState(false);
  const [saveKey, setSaveKey] = useState(() => crypto.randomUUID());
  const chosen = generation.drafts.filter((draft) => draft.selected);

  const save = useMutation({
    mutationFn: () => saveDrafts(chosen, saveKey),
    onSuccess: async (saved) => {
      toast.success(m.generate_saved({ count: saved }));
      generation.clear();
      setSaveKey(crypto.randomUUID());
      await refreshCards();
    },
    onError: toastError,
  });

  function onSave() {
    const problem = problemOf(chosen);
    if (problem) toast.error(problem);
    else save.mutate();
  }

  return (
    <main className="mx-auto max-w-6xl px-6 py-10">
      <NeedsNetwork />
      <div className="mb-8">
        <Link to="/dashboard" className="text-sm font-medium text-brand-700 hover:text-brand-800">
          ← {m.dashboard_title()}
        </Link>
        <h1 className="mt-2 text-2xl font-semibold tracking-tight text-slate-900">{m.generate_title()}</h1>
        <p className="mt-1 max-w-2xl text-sm text-slate-600">{m.generate_description()}</p>
      </div>
      <div className="grid items-start gap-8 lg:grid-cols-[24rem_1fr]">
        <section className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
          <GenerateForm
            userId={session.user.id}
            running={generation.running}
            onGenerate={generation.start}
            onStop={generation.stop}
          />
        </section>
        <section aria-labelledby="proposals-heading" className="space-y-4">
          <UsageFigure />
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h2 id="proposals-heading" className="text-lg font-semibold text-slate-900">
              {m.generate_proposals_heading()}
            </h2>
            {generation.drafts.length > 0 && (
              <div className="flex gap-2">
                <Button variant="ghost" onClick={() => generation.selectAll(true)}>
                  {m.generate_select_all()}
                </Button>
                <Button variant="ghost" onClick={() => generation.selectAll(false)}>
                  {m.generate_select_none()}
                </Button>
              </div>
            )}
          </div>
          {generation.restored && (
            <p data-testid="generation-restored" className="rounded-lg bg-brand-50 px-3 py-2 text-sm text-brand-800">
              {m.generate_draft_restored()}
            </p>
          )}
          <GenerationProgress generation={generation} />
          {generation.drafts.length === 0 && !generation.running && !generation.finished && (
            <p className="text-sm text-slate-500">{m.generate_proposals_empty()}</p>
          )}
          <ol className="space-y-3">
            {generation.drafts.map((draft, index) => (
              <ProposalCard
                key={draft.key}
                draft={draft}
                number={index + 1}
                onChange={(change) => generation.update(draft.key, change)}
              />
            ))}
          </ol>
          {generation.drafts.length > 0 && (
            <div className="flex flex-col gap-3 sm:flex-row">
              <Button
                onClick={onSave}
                pending={save.isPending}
                disabled={chosen.length === 0 || generation.running}
                className="w-full sm:flex-1"
              >
                {chosen.length === 1 ? m.generate_save_one() : m.generate_save_many({ count: chosen.length })}
              </Button>
              <Button
                variant="secondary"
                onClick={() => setDiscarding(true)}
                disabled={save.isPending || generation.running}
              >
                {m.generate_discard()}
              </Button>
            </div>
          )}
          <ConfirmDialog
            open={discarding}
            title={m.generate_discard_title()}
            text={m.generate_discard_text()}
            confirmLabel={m.generate_discard()}
            onConfirm={() => {
              generation.clear();
              setDiscarding(false);
              toast.success(m.generate_discarded());
            }}
            onCancel={() => setDiscarding(false)}
          />
        </section>
      </div>
    </main>
  );
}
