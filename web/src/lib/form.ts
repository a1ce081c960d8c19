// The one form pattern: values are checked against the contract's zod schema (the same one the gateway
// and the service apply), and each failing field shows its message in the current language.

/** What this needs of a zod schema, so the web app does not depend on zod itself. */
export interface Schema {
  safeParse(value: unknown): { success: boolean; error?: { issues: readonly { path: readonly PropertyKey[] }[] } };
}

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

/** Field errors of `values`, first failing issue per field; fields without a message are not shown. */
export function fieldErrors<K extends string>(
  schema: Schema,
  values: unknown,
  messages: Record<K, () => string>,
): FieldErrors<K> {
  const result = schema.safeParse(values);
  const errors: FieldErrors<K> = {};
  if (result.success) return errors;
  for (const issue of result.error?.issues ?? []) {
    const field = String(issue.path[0] ?? '');
    if (Object.hasOwn(messages, field) && errors[field as K] === undefined) {
      errors[field as K] = messages[field as K]();
    }
  }
  return errors;
}

export const hasErrors = (errors: Partial<Record<string, string>>) =>
  Object.values(errors).some((error) => error !== undefined);

/** A number typed into a field: empty or malformed input becomes NaN, which every number schema refuses. */
export const parseNumber = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

/** Every IANA timezone this browser knows, and the one it runs in. */
export function timeZones(): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return zones.includes('UTC') ? zones : ['UTC', ...zones];
}

export const detectedTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** The bounds a contract's number schema enforces, for messages that name them (never retyped here). */
export function bounds(schema: { minValue: number | null; maxValue: number | null }): { min: number; max: number } {
  return { min: schema.minValue ?? Number.NEGATIVE_INFINITY, max: schema.maxValue ?? Number.POSITIVE_INFINITY };
}
