// A labelled input or textarea with its hint and error wired up through aria-describedby; with a
// maxLength, a character counter shows once the text nears that limit. NumberField is one for a number,
// kept in this module so the forms that share it load no chunk of its own (the JavaScript budget: every
// chunk's name is listed in the first-load script; web/README.md).
import { type ChangeEvent, type ClipboardEvent, type DragEvent, type KeyboardEvent, type Ref, useId } from 'react';
import { getLocale, m } from '../lib/i18n';
import { FieldError } from './field-error';

type TextFieldProps = {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'email' | 'password' | 'number' | 'search' | 'date' | 'tel';
  min?: number;
  max?: number;
  step?: number | 'any';
  list?: string;
  inputMode?: 'numeric' | 'decimal' | 'text' | 'search' | 'tel';
  autoComplete?: string;
  placeholder?: string;
  hint?: string;
  error?: string | undefined;
  multiline?: boolean;
  rows?: number;
  disabled?: boolean;
  ref?: Ref<HTMLInputElement & HTMLTextAreaElement>;
  onKeyDown?: (event: KeyboardEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
  /** Files pasted or dropped into the field (a card's image or sound). */
  onPaste?: (event: ClipboardEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
  onDragOver?: (event: DragEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
  onDrop?: (event: DragEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
  /** The longest text allowed (a contracts limit); not enforced here, the form's schema says what is wrong. */
  maxLength?: number;
};

/** The counter shows from this share of the limit on: it matters only near the end. */
const COUNTER_FROM = 0.9;

const FIELD =
  'block w-full rounded-lg border-0 bg-white px-3.5 py-2.5 text-sm text-slate-900 shadow-sm ring-1 ring-inset placeholder:text-slate-500 focus:ring-2 focus:ring-inset focus:outline-none disabled:bg-slate-50 disabled:text-slate-500';

export function TextField(props: TextFieldProps) {
  const { label, hint, error, multiline = false, rows = 3, onChange, type = 'text', maxLength, ...inputProps } = props;
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const counterId = `${id}-counter`;
  const counted = maxLength !== undefined && props.value.length >= maxLength * COUNTER_FROM;
  // The hint gives way to the error, so only one of them describes the field at a time.
  const describedBy =
    [error ? errorId : hint ? hintId : undefined, counted ? counterId : undefined].filter(Boolean).join(' ') ||
    undefined;
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
      {error && <FieldError id={errorId}>{error}</FieldError>}
      {hint && !error && (
        <p id={hintId} className="text-xs text-slate-500">
          {hint}
        </p>
      )}
      {counted && maxLength !== undefined && (
        <p
          id={counterId}
          className={`text-right text-xs tabular-nums ${props.value.length > maxLength ? 'font-medium text-red-600' : 'text-slate-500'}`}
        >
          {m.field_count({
            count: new Intl.NumberFormat(getLocale()).format(props.value.length),
            max: new Intl.NumberFormat(getLocale()).format(maxLength),
          })}
        </p>
      )}
    </div>
  );
}

type NumberFieldProps = {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  bounds: { min?: number | undefined; max?: number | undefined };
  inputMode?: 'numeric' | 'decimal';
  step?: number;
  hint?: string | undefined;
  error?: string | undefined;
};

/** A number typed into a text field, its min and max the bounds of the contract's schema (lib/form.ts's
 * bounds), so the browser's stepper stops where the form's check would refuse. */
export function NumberField({ bounds, inputMode = 'numeric', ...props }: NumberFieldProps) {
  return <TextField type="number" inputMode={inputMode} min={bounds.min} max={bounds.max} {...props} />;
}
