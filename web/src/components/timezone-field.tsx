// A timezone picker: a text field that searches every IANA zone the browser knows as you type.
import { useId, useMemo } from 'react';
import { timeZones } from '../lib/form';
import { TextField } from './text-field';

type TimezoneFieldProps = {
  label: string;
  value: string;
  onChange: (value: string) => void;
  hint?: string;
  error?: string | undefined;
};

export function TimezoneField({ label, value, onChange, hint, error }: TimezoneFieldProps) {
  const listId = useId();
  const zones = useMemo(timeZones, []);
  return (
    <>
      <TextField
        label={label}
        name="timezone"
        type="search"
        autoComplete="off"
        list={listId}
        value={value}
        onChange={onChange}
        hint={hint}
        error={error}
      />
      <datalist id={listId}>
        {zones.map((zone) => (
          <option key={zone} value={zone} />
        ))}
      </datalist>
    </>
  );
}
