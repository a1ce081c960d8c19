// The steps of bringing a file in: choosing it, sending it to the store (with the share sent so far), then
// for a CSV or TSV file its preview and column mapping, for an Anki package the import at once; and
// following the import that runs. A failure on the way is toasted and goes back to choosing. The import
// followed is remembered for the tab (sessionStorage), so a learner who leaves and comes back finds it again,
// running or finished, until they choose another file.
import { importFormatOf } from '@engram/contracts/imports';
import type { ImportPreviewJson } from '@engram/gateway/router';
import { useState } from 'react';
import { sendToStore } from '../../entities/media/upload';
import { toastError } from '../../lib/errors';
import { trpcClient } from '../../lib/trpc';
import { refreshImports } from './queries';

export type ImportStep =
  | { step: 'choose' }
  | { step: 'sending'; name: string; share: number }
  | { step: 'reading'; name: string }
  | { step: 'preview'; uploadId: string; name: string; preview: ImportPreviewJson }
  | { step: 'following'; importId: string };

const FOLLOWED_KEY = 'engram.import.followed';

/** The import this tab follows, if any (storage may be unavailable: then none). */
function followedImport(): string | undefined {
  try {
    return sessionStorage.getItem(FOLLOWED_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

function rememberFollowed(importId: string | undefined): void {
  try {
    if (importId) sessionStorage.setItem(FOLLOWED_KEY, importId);
    else sessionStorage.removeItem(FOLLOWED_KEY);
  } catch {
    // Without storage the import is still listed below, and a running one is followed again from the list.
  }
}

export function useImportFlow() {
  const [step, setStepState] = useState<ImportStep>(() => {
    const importId = followedImport();
    return importId ? { step: 'following', importId } : { step: 'choose' };
  });
  const setStep = (next: ImportStep) => {
    rememberFollowed(next.step === 'following' ? next.importId : undefined);
    setStepState(next);
  };

  async function send(file: File) {
    const { name } = file;
    setStep({ step: 'sending', name, share: 0 });
    try {
      const uploadId = await sendToStore(file, 'import', (share) => setStep({ step: 'sending', name, share }));
      setStep({ step: 'reading', name });
      const format = importFormatOf(name);
      if (format === 'csv' || format === 'tsv') {
        const preview = await trpcClient.imports.preview.query({ uploadId });
        setStep({ step: 'preview', uploadId, name, preview });
        return;
      }
      const { importId } = await trpcClient.imports.start.mutate({ uploadId, ...(format && { format }) });
      setStep({ step: 'following', importId });
      await refreshImports();
    } catch (error) {
      toastError(error);
      setStep({ step: 'choose' });
    }
  }

  return {
    step,
    send: (file: File) => void send(file),
    follow: (importId: string) => setStep({ step: 'following', importId }),
    restart: () => setStep({ step: 'choose' }),
  };
}
