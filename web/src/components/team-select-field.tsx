// Which team a deck is shared with or an assignment is for: one of the organization's teams, or the whole
// organization (no team).
import { m } from '../lib/i18n';
import { SelectField } from './select-field';

type TeamSelectFieldProps = {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Team names by id. */
  teams: ReadonlyMap<string, string>;
  disabled?: boolean;
};

export function TeamSelectField({ label, value, onChange, teams, disabled }: TeamSelectFieldProps) {
  return (
    <SelectField label={label} name="teamId" value={value} onChange={onChange} disabled={disabled}>
      <option value="">{m.shared_decks_whole_organization()}</option>
      {[...teams].map(([id, name]) => (
        <option key={id} value={id}>
          {name}
        </option>
      ))}
    </SelectField>
  );
}
