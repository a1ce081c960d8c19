// Where a file to import goes: one large button that opens the file chooser and takes a file dropped on it
// (so the keyboard and a screen reader reach it like any button). A file of another kind, or too large, is
// refused here with the contract's words before anything is sent.
import { type DragEvent, useRef, useState } from 'react';
import { m } from '../../lib/i18n';
import { toast } from '../../lib/toast';
import { fileRefusal, IMPORT_ACCEPT, importLimit } from './choose-file';

function UploadIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      className="size-8 text-brand-600"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.5"
      aria-hidden="true"
    >
      <path d="M12 16V4m0 0l-4 4m4-4l4 4M4 16v2a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-2" />
    </svg>
  );
}

export function DropZone({ onFile }: { onFile: (file: File) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);

  function take(file: File | undefined) {
    if (!file) return;
    const refusal = fileRefusal(file);
    if (refusal) toast.error(refusal);
    else onFile(file);
  }

  const hasFiles = (event: DragEvent) => event.dataTransfer.types.includes('Files');

  return (
    <>
      <button
        type="button"
        data-testid="import-drop-zone"
        onClick={() => input.current?.click()}
        onDragEnter={(event) => {
          if (hasFiles(event)) setOver(true);
        }}
        onDragOver={(event) => {
          if (!hasFiles(event)) return;
          event.preventDefault();
          event.dataTransfer.dropEffect = 'copy';
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(event) => {
          event.preventDefault();
          setOver(false);
          take(event.dataTransfer.files[0]);
        }}
        className={`flex w-full flex-col items-center gap-2 rounded-2xl border-2 border-dashed px-6 py-10 text-center transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ${
          over ? 'border-brand-500 bg-brand-50' : 'border-slate-300 bg-white hover:border-brand-400 hover:bg-slate-50'
        }`}
      >
        <UploadIcon />
        <span className="text-base font-semibold text-slate-900">{m.import_drop()}</span>
        <span className="text-sm text-slate-600">{m.import_drop_hint({ max: importLimit() })}</span>
      </button>
      <input
        ref={input}
        type="file"
        accept={IMPORT_ACCEPT}
        hidden
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          take(file);
        }}
      />
    </>
  );
}
