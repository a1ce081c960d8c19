// A number typed into a text field, its min and max the bounds of the contract's schema (lib/form.ts's
// bounds), so the browser's stepper stops where the form's check would refuse.
import { TextField } from './text-field';

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

export function NumberField({ bounds, inputMode = 'numeric', ...props }: NumberFieldProps) {
  return <TextField type="number" inputMode={inputMode} min={bounds.min} max={bounds.max} {...props} />;
}
