// The "New card" form: creates a card, puts it at the top of the list at once, then refetches the list.
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { toast } from 'sonner';
import { type Card, cardsListOptions } from '../lib/cards';
import { toastError } from '../lib/errors';
import { m } from '../lib/i18n';
import { queryClient } from '../lib/query-client';
import { trpc } from '../lib/trpc';
import { CARD_SIDE_MAX_LENGTH, validateCardSide } from '../lib/validation';
import { Button } from './button';
import { TextField } from './text-field';

type Errors = { front?: string | undefined; back?: string | undefined };

const validate = (front: string, back: string): Errors => ({
  front: validateCardSide('front', front),
  back: validateCardSide('back', back),
});

/** Shows the new card before the refetch lands, so the user sees it at the top straight away. */
function prependToList(card: Card) {
  queryClient.setQueryData(cardsListOptions.queryKey, (data) => {
    const [first, ...rest] = data?.pages ?? [];
    if (!data || !first) return data;
    return { ...data, pages: [{ ...first, items: [card, ...first.items] }, ...rest] };
  });
}

export function NewCardForm() {
  const [front, setFront] = useState('');
  const [back, setBack] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [submitted, setSubmitted] = useState(false);
  const frontRef = useRef<HTMLInputElement & HTMLTextAreaElement>(null);

  const createCard = useMutation(
    trpc.cards.create.mutationOptions({
      onSuccess: async (card) => {
        prependToList(card);
        setFront('');
        setBack('');
        setSubmitted(false);
        setErrors({});
        frontRef.current?.focus();
        toast.success(m.new_card_added());
        await queryClient.invalidateQueries({ queryKey: trpc.cards.list.pathKey() });
      },
      onError: toastError,
    }),
  );

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitted(true);
    const found = validate(front, back);
    setErrors(found);
    if (found.front || found.back) return;
    createCard.mutate({ front: front.trim(), back: back.trim() });
  }

  const onFront = (value: string) => {
    setFront(value);
    if (submitted) setErrors(validate(value, back));
  };
  const onBack = (value: string) => {
    setBack(value);
    if (submitted) setErrors(validate(front, value));
  };

  return (
    <section aria-labelledby="new-card-heading" className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <h2 id="new-card-heading" className="text-lg font-semibold text-slate-900">
        {m.new_card_heading()}
      </h2>
      <p className="mt-1 text-sm text-slate-500">{m.new_card_description()}</p>
      <form onSubmit={submit} noValidate className="mt-5 space-y-4">
        <TextField
          label={m.new_card_front()}
          name="front"
          multiline
          rows={3}
          placeholder={m.new_card_front_placeholder()}
          value={front}
          onChange={onFront}
          error={errors.front}
          ref={frontRef}
        />
        <TextField
          label={m.new_card_back()}
          name="back"
          multiline
          rows={3}
          placeholder={m.new_card_back_placeholder()}
          hint={m.new_card_hint({ max: CARD_SIDE_MAX_LENGTH })}
          value={back}
          onChange={onBack}
          error={errors.back}
        />
        <Button type="submit" pending={createCard.isPending} className="w-full">
          {m.new_card_submit()}
        </Button>
      </form>
    </section>
  );
}
