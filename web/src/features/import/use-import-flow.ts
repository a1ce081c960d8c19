// The steps of bringing a file in: choosing it, sending it to the store (with the share sent so far), then
// for a CSV or TSV file its preview and column mapping, for an Anki package the import at once; and
// following the import that runs. A failure on the way is toasted and goes back to choosing.
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

export function useImportFlow() {
  const [step, setStep] = useState<ImportStep>({ step: 'choose' });

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
