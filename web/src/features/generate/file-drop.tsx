// The file half of the notes: drop a .md, .txt or PDF file (or choose one); it is checked here, sent as
// form data to ai.upload at once, and its text is then used instead of the pasted notes.
import { UPLOAD_EXTENSIONS, UPLOAD_MAX_BYTES, uploadKind } from '@engram/contracts/ai';
import { useMutation } from '@tanstack/react-query';
import { type DragEvent, useId, useState } from 'react';
import { Spinner } from '../../components/spinner';
import { toastError } from '../../lib/errors';
import { m } from '../../lib/i18n';
import { toast } from '../../lib/toast';
import { trpcClient } from '../../lib/trpc';

export type UploadedFile = { fileId: string; fileName: string };

const MAX_MB = UPLOAD_MAX_BYTES / 1024 / 1024;

export function FileDrop({
  value,
  onChange,
}: {
  value: UploadedFile | undefined;
  onChange: (file?: UploadedFile) => void;
}) {
  const inputId = useId();
  const [over, setOver] = useState(false);
  const upload = useMutation({
    mutationFn: (form: FormData) => trpcClient.ai.upload.mutate(form),
    onSuccess: (answer) => onChange({ fileId: answer.fileId, fileName: answer.fileName }),
    onError: toastError,
  });

  function take(file: File | undefined) {
    if (!file) return;
    if (!uploadKind(file.name)) return void toast.error(m.generate_file_unsupported());
    if (file.size > UPLOAD_MAX_BYTES) return void toast.error(m.generate_file_too_large({ max: MAX_MB }));
    const form = new FormData();
    form.append('file', file);
    upload.mutate(form);
  }

  function drop(event: DragEvent<HTMLElement>) {
    event.preventDefault();
    setOver(false);
    take(event.dataTransfer.files[0]);
  }

  if (value) {
    return (
      <div className="flex items-center justify-between gap-3 rounded-lg bg-brand-50 px-3 py-2 text-sm text-brand-900 ring-1 ring-brand-200">
        <span>{m.generate_file_using({ name: value.fileName })}</span>
        <button
          type="button"
          onClick={() => onChange(undefined)}
          className="font-medium text-brand-700 hover:text-brand-800"
        >
          {m.generate_file_remove()}
        </button>
      </div>
    );
  }
  return (
    <section
      aria-label={m.generate_file_choose()}
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
      className={`rounded-lg border-2 border-dashed px-4 py-4 text-center text-sm ${over ? 'border-brand-500 bg-brand-50' : 'border-slate-300 text-slate-600'}`}
    >
      {upload.isPending ? (
        <span className="inline-flex items-center gap-2">
          <Spinner /> {m.generate_file_reading()}
        </span>
      ) : (
        <>
          <p>{m.generate_file_drop({ max: MAX_MB })}</p>
          <label
            htmlFor={inputId}
            className="mt-1 inline-block cursor-pointer font-medium text-brand-700 hover:text-brand-800"
          >
            {m.generate_file_choose()}
          </label>
          <input
            id={inputId}
            type="file"
            accept={[...UPLOAD_EXTENSIONS, 'text/markdown', 'text/plain', 'application/pdf'].join(',')}
            className="sr-only"
            onChange={(event) => {
              take(event.target.files?.[0]);
              event.target.value = '';
            }}
          />
        </>
      )}
    </section>
  );
}
