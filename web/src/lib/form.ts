// The one form pattern: a draft, a problem function that names each failing field in the current language
// (from the contract's checks: its zod schema, or a check such as checkDeck, the same the gateway and the
// service apply), and useContractForm, which owns the draft, when errors show, the mutation, the success
// toast, the reset and the invalidation (useFormDraft is its first half, for a form that sends no mutation).
import { type UseMutationOptions, useMutation } from '@tanstack/react-query';
import { type FormEvent, type SetStateAction, useState } from 'react';
import { toastError } from './errors';
import { toast } from './toast';

/** What this needs of a zod schema, so the web app does not depend on zod itself. */
export interface Schema {
  safeParse(value: unknown): { success: boolean; error?: { issues: readonly { path: readonly PropertyKey[] }[] } };
}

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

/** A form's problem function: each failing field's message in the current language, none for the rest. */
export type ProblemFunction<D, K extends string> = (draft: D) => FieldErrors<K>;

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

/** A form's state: the draft, and whether the user has tried to submit it (errors show only from then on). */
export interface FormState<D> {
  draft: D;
  attempted: boolean;
}

const holdsText = (value: unknown) => typeof value === 'string' && value.trim() !== '';

/** The errors the form shows: none before the first submit attempt, then every failing field's, kept up to
 * date as the user types (so a message goes away as soon as its field is right). An `eager` field's shows
 * before that, as soon as the field holds text (a number typed out of range says so at once). */
export function shownErrors<D, K extends string>(
  state: FormState<D>,
  check: ProblemFunction<D, K>,
  eager: readonly (K & keyof D)[] = [],
): FieldErrors<K> {
  if (state.attempted) return check(state.draft);
  const typed = eager.filter((field) => holdsText(state.draft[field]));
  if (typed.length === 0) return {};
  const errors = check(state.draft);
  const shown: FieldErrors<K> = {};
  for (const field of typed) if (errors[field] !== undefined) shown[field] = errors[field];
  return shown;
}

/** A submit attempt: errors show from now on, and the draft is sent only if its check finds no problem. */
export function attemptSubmit<D, K extends string>(
  state: FormState<D>,
  check: ProblemFunction<D, K>,
): { state: FormState<D>; send: boolean } {
  return { state: { ...state, attempted: true }, send: !hasErrors(check(state.draft)) };
}

/** After a save: a form that resets starts over (its errors hidden until the next attempt); one that
 * does not keeps what was saved, errors still shown as the user types. */
export function afterSave<D>(state: FormState<D>, reset: ((draft: D) => D) | undefined): FormState<D> {
  return reset ? { draft: reset(state.draft), attempted: false } : state;
}

/** What a section of a long form gets of it: the draft, the errors shown, a change handler per field. */
export interface FormSection<D, K extends string = Extract<keyof D, string>> {
  draft: D;
  errors: FieldErrors<K>;
  set: <F extends keyof D>(key: F) => (value: D[F]) => void;
}

export interface FormDraftOptions<D, K extends string> {
  /** The draft the form opens with. */
  initial: D | (() => D);
  /** The form's problem function (from the contract's checks). */
  check: ProblemFunction<D, K>;
  /** The fields whose error shows as soon as they hold text, before any submit attempt (see shownErrors). */
  eager?: readonly (K & keyof D)[];
}

/** The problem function of a form with no check of its own: the server's are its only ones. */
export const noProblems = (): FieldErrors<never> => ({});

/** A form's draft and the errors it shows, without the sending: useContractForm's first half, and all of
 * it a form needs whose send is not a mutation of its own (Generate's, which starts a stream its screen follows). */
export function useFormDraft<D, K extends string>({ initial, check, eager }: FormDraftOptions<D, K>) {
  const [state, setState] = useState<FormState<D>>(() => ({
    draft: typeof initial === 'function' ? (initial as () => D)() : initial,
    attempted: false,
  }));

  /** Replaces the draft, or changes it from what it is now. */
  const setDraft = (next: SetStateAction<D>) =>
    setState((current) => ({
      ...current,
      draft: typeof next === 'function' ? (next as (draft: D) => D)(current.draft) : next,
    }));

  return {
    draft: state.draft,
    errors: shownErrors(state, check, eager),
    setDraft,
    /** A change handler for one field of the draft. */
    set:
      <F extends keyof D>(key: F) =>
      (value: D[F]) =>
        setDraft((current) => ({ ...current, [key]: value })),
    /** The form's submit handler: errors show from then on, and `send` gets a draft its check passes. */
    submitWith: (send: (draft: D) => void) => (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      setState((current) => attemptSubmit(current, check).state);
      if (attemptSubmit(state, check).send) send(state.draft);
    },
    /** What a save leaves in the form (afterSave). */
    markSaved: (reset?: (draft: D) => D) => setState((current) => afterSave(current, reset)),
  };
}

export interface ContractFormOptions<D, K extends string, I, R, E> extends FormDraftOptions<D, K> {
  /** What the mutation takes of a draft that passes. */
  input: (draft: D) => I;
  /** The mutation that saves it (a tRPC procedure's mutationOptions, or a mutationFn of its own). */
  mutation: UseMutationOptions<R, E, I>;
  /** The success toast's text, from what the save answered and what was sent; no toast without it. */
  saved?: (result: R, input: I) => string;
  /** What the draft becomes once saved; without it the form keeps what was saved. */
  reset?: (draft: D) => D;
  /** What else a save does on the page (close an editor, show the new item, move on), before the toast. */
  onSaved?: (result: R) => unknown;
  /** The queries a save makes stale, fetched again after the toast. */
  invalidate?: () => Promise<unknown>;
}

export function useContractForm<D, K extends string, I, R, E = unknown>(options: ContractFormOptions<D, K, I, R, E>) {
  const { input, saved, reset, onSaved, invalidate } = options;
  const { submitWith, markSaved, ...form } = useFormDraft(options);

  const mutation = useMutation({
    ...options.mutation,
    onSuccess: async (result: R, sent: I) => {
      markSaved(reset);
      const after = onSaved?.(result);
      if (saved) toast.success(saved(result, sent));
      await after;
      await invalidate?.();
    },
    // A refusal by the server shows as a toast in the user's language (lib/errors.ts).
    onError: toastError,
  });

  return {
    ...form,
    submit: submitWith((draft) => mutation.mutate(input(draft))),
    pending: mutation.isPending,
  };
}
