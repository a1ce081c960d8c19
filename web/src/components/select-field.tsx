// A labelled select with its error wired up through aria-describedby, styled like the text fields.
import { type ReactNode, useId } from 'react';
import { FieldError } from './field-error';

type SelectFieldProps = {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  children: ReactNode;
  error?: string | undefined;
  disabled?: boolean;
};

export function SelectField({ label, name, value, onChange, children, error, disabled }: SelectFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const ring = error ? 'ring-red-400 focus:ring-red-500' : 'ring-slate-300 focus:ring-brand-600';
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <select
        id={id}
        name={name}
        value={value}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(event) => onChange(event.target.value)}
        className={`block w-full rounded-lg border-0 bg-white px-3 py-2.5 text-sm text-slate-900 shadow-sm ring-1 ring-inset focus:ring-2 focus:outline-none disabled:bg-slate-50 disabled:text-slate-500 ${ring}`}
      >
        {children}
      </select>
      {error && <FieldError id={errorId}>{error}</FieldError>}
    </div>
  );
}
