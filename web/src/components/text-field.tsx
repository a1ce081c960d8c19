// A labelled input or textarea with its hint and error wired up through aria-describedby.
import { type ChangeEvent, type KeyboardEvent, type Ref, useId } from 'react';

type TextFieldProps = {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'email' | 'password' | 'number' | 'search' | 'date';
  min?: number;
  max?: number;
  step?: number | 'any';
  list?: string;
  inputMode?: 'numeric' | 'decimal' | 'text' | 'search';
  autoComplete?: string;
  placeholder?: string;
  hint?: string;
  error?: string | undefined;
  multiline?: boolean;
  rows?: number;
  disabled?: boolean;
  ref?: Ref<HTMLInputElement & HTMLTextAreaElement>;
  onKeyDown?: (event: KeyboardEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
};

const FIELD =
  'block w-full rounded-lg border-0 bg-white px-3.5 py-2.5 text-sm text-slate-900 shadow-sm ring-1 ring-inset placeholder:text-slate-500 focus:ring-2 focus:ring-inset focus:outline-none disabled:bg-slate-50 disabled:text-slate-500';

export function TextField(props: TextFieldProps) {
  const { label, hint, error, multiline = false, rows = 3, onChange, type = 'text', ...inputProps } = props;
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  // The hint gives way to the error, so only one of them describes the field at a time.
  const describedBy = error ? errorId : hint ? hintId : undefined;
  const ring = error ? 'ring-red-400 focus:ring-red-500' : 'ring-slate-300 focus:ring-brand-600';
  const shared = {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
    className: `${FIELD} ${ring}`,
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => onChange(event.target.value),
    ...inputProps,
  };

  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      {multiline ? (
        <textarea rows={rows} {...shared} className={`${shared.className} resize-y`} />
      ) : (
        <input type={type} {...shared} />
      )}
      {error && (
        <p id={errorId} className="text-sm text-red-600">
          {error}
        </p>
      )}
      {hint && !error && (
        <p id={hintId} className="text-xs text-slate-500">
          {hint}
        </p>
      )}
    </div>
  );
}
