// Images and sounds in a card's sides: chosen with a button, dragged onto a side or pasted into it (a
// screenshot), each is sent to the store, kept by cards (entities/media/upload.ts) and written into the side
// as Markdown at its end. While files are on their way the form says so; a refused file is toasted in the
// server's words (the wrong type, too large, over the plan's storage). Under each side, its files as thumbnails (a
// sound as a small player), each with a button that takes it out of the side (side-files.ts).
import { type ClipboardEvent, type DragEvent, useRef, useState } from 'react';
import { markdownOf } from '../../entities/media/card-markdown';
import { keepCardFile } from '../../entities/media/upload';
import { toastError } from '../../lib/errors';
import { m } from '../../lib/i18n';
import { filesOf } from './side-files';

/** Where a file goes: a card's side, or a note's field (by its position). */
export type Side = 'front' | 'back' | `field-${number}`;

/** What a card file input takes: the types a card holds. */
export const CARD_FILE_ACCEPT = 'image/png,image/jpeg,image/webp,image/gif,image/svg+xml,audio/*';

/** Appends `markdown` to `text` on a line of its own. */
export const withFile = (text: string, markdown: string) =>
  text === '' ? markdown : `${text}${text.endsWith('\n') ? '' : '\n'}${markdown}`;

export function useCardFiles<S extends Side = Side>(insert: (side: S, markdown: string) => void) {
  const [pending, setPending] = useState(0);

  async function add(side: S, files: readonly File[]) {
    for (const file of files) {
      setPending((count) => count + 1);
      try {
        insert(side, markdownOf(await keepCardFile(file)));
      } catch (error) {
        toastError(error);
      } finally {
        setPending((count) => count - 1);
      }
    }
  }

  /** The paste and drop handlers of a side's text area. */
  const handlers = (side: S) => ({
    onPaste: (event: ClipboardEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      const files = [...event.clipboardData.files];
      if (files.length === 0) return;
      event.preventDefault();
      void add(side, files);
    },
    onDragOver: (event: DragEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      if (event.dataTransfer.types.includes('Files')) event.preventDefault();
    },
    onDrop: (event: DragEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      const files = [...event.dataTransfer.files];
      if (files.length === 0) return;
      event.preventDefault();
      void add(side, files);
    },
  });

  return { adding: pending > 0, add, handlers };
}

/** "Add an image or a sound" under a side: opens the system's file chooser. */
export function AddFileButton({
  side,
  onFiles,
  label,
}: {
  side: Side;
  onFiles: (files: File[]) => void;
  /** What the button says, when not the side's own words (a note's field names itself). */
  label?: string;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button
        type="button"
        onClick={() => input.current?.click()}
        className="text-xs font-medium text-brand-700 hover:text-brand-800"
      >
        {label ?? (side === 'front' ? m.media_add_front() : m.media_add_back())}
      </button>
      <input
        ref={input}
        type="file"
        accept={CARD_FILE_ACCEPT}
        multiple
        hidden
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          event.target.value = '';
          if (files.length > 0) onFiles(files);
        }}
      />
    </>
  );
}

/** The pictures and sounds a side shows, as thumbnails and small players, each with a button to take it out. */
export function SideFiles({
  side,
  text,
  onRemove,
  label,
}: {
  side: Side;
  text: string;
  onRemove: (address: string) => void;
  /** The list's name, when not the side's own (a note's field names itself). */
  label?: string;
}) {
  const files = filesOf(text);
  if (files.length === 0) return null;
  return (
    <ul
      aria-label={label ?? (side === 'front' ? m.media_in_front() : m.media_in_back())}
      className="flex flex-wrap gap-2"
    >
      {files.map((file) => (
        <li
          key={file.address}
          className="flex max-w-full items-center gap-2 rounded-lg bg-slate-50 p-1.5 ring-1 ring-slate-200"
        >
          {file.sound ? (
            // biome-ignore lint/a11y/useMediaCaption: a learner's own recording has no captions; its name labels it
            <audio
              controls
              preload="metadata"
              src={file.address}
              aria-label={file.name}
              className="h-8 w-44 max-w-full"
            />
          ) : (
            <img src={file.address} alt={file.name} loading="lazy" className="size-12 rounded object-cover" />
          )}
          <span className="min-w-0 max-w-40 truncate text-xs text-slate-600">{file.name}</span>
          <button
            type="button"
            aria-label={m.media_remove_named({ name: file.name })}
            title={m.media_remove_named({ name: file.name })}
            onClick={() => onRemove(file.address)}
            className="flex size-7 shrink-0 items-center justify-center rounded-md text-slate-500 hover:bg-slate-200 hover:text-slate-900"
          >
            <span aria-hidden="true">×</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
