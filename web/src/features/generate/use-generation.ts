// One generation as the screen follows it: ai.generate's stream read event by event (each proposal
// becomes an editable draft at once), a way to stop it, and how it ended.
import type { GenerateInput } from '@engram/contracts/ai';
import { useCallback, useEffect, useRef, useState } from 'react';
import { toastError } from '../../lib/errors';
import { refreshGenerationUsage } from '../../lib/generation';
import { trpcClient } from '../../lib/trpc';
import { applyEvent, type Draft, type GenerationState, IDLE } from './drafts';

export function useGeneration() {
  const [state, setState] = useState<GenerationState>(IDLE);
  const controller = useRef<AbortController | null>(null);

  useEffect(() => () => controller.current?.abort(), []);

  const start = useCallback(async (input: GenerateInput) => {
    controller.current?.abort();
    const own = new AbortController();
    controller.current = own;
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

  const clear = useCallback(() => setState(IDLE), []);

  return { ...state, start, stop, update, selectAll, clear };
}
