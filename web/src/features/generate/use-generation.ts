// One generation as the screen follows it: ai.generate's stream read event by event (each proposal
// becomes an editable draft at once), a way to stop it, and how it ended. The proposals are a draft kept
// for the user (entities/generation/draft-store.ts) until saved or discarded: leaving the page or reloading it brings them
// back, edits and choices included.
import type { GenerateInput } from '@engram/contracts/ai';
import { useCallback, useEffect, useRef, useState } from 'react';
import { clearGenerationDraft, loadGenerationDraft, saveGenerationDraft } from '../../entities/generation/draft-store';
import { refreshGenerationUsage } from '../../entities/generation/usage';
import { toastError } from '../../lib/errors';
import { trpcClient } from '../../lib/trpc';
import { applyEvent, type Draft, fromStored, type GenerationState, IDLE, toStored } from './drafts';

export function useGeneration(userId: string) {
  const [state, setState] = useState<GenerationState>(() => fromStored(loadGenerationDraft(userId)));
  /** Whether the drafts shown were brought back from an earlier visit (until a new generation or a discard). */
  const [restored, setRestored] = useState(() => state.drafts.length > 0);
  const controller = useRef<AbortController | null>(null);

  useEffect(() => () => controller.current?.abort(), []);

  useEffect(() => {
    const stored = toStored(state);
    if (stored) saveGenerationDraft(userId, stored);
    else clearGenerationDraft(userId);
  }, [state, userId]);

  const start = useCallback(async (input: GenerateInput) => {
    controller.current?.abort();
    const own = new AbortController();
    controller.current = own;
    setRestored(false);
    setState({ ...IDLE, running: true });
    try {
      const stream = await trpcClient.ai.generate.mutate(input, { signal: own.signal });
      for await (const event of stream) {
        if (own.signal.aborted) break;
        setState((current) => applyEvent(current, event));
      }
    } catch (error) {
      if (!own.signal.aborted) toastError(error);
    } finally {
      if (controller.current === own) controller.current = null;
      setState((current) => ({ ...current, running: false }));
      await refreshGenerationUsage();
    }
  }, []);

  const stop = useCallback(() => controller.current?.abort(), []);

  const update = useCallback((key: string, change: Partial<Draft>) => {
    setState((current) => ({
      ...current,
      drafts: current.drafts.map((draft) => (draft.key === key ? { ...draft, ...change } : draft)),
    }));
  }, []);

  const selectAll = useCallback((selected: boolean) => {
    setState((current) => ({ ...current, drafts: current.drafts.map((draft) => ({ ...draft, selected })) }));
  }, []);

  /** Saved or discarded: the proposals go, from the page and from storage (a running generation stops). */
  const clear = useCallback(() => {
    controller.current?.abort();
    setRestored(false);
    setState(IDLE);
  }, []);

  return { ...state, restored, start, stop, update, selectAll, clear };
}
