// One practice session on screen (session-screen.tsx starts it from the due list, the device or a reload): a
// progress bar with undo and end, the card (a tap shows the answer), then the four ratings, each naming the
// interval it gives. Each part below is a hook or a component of its own.
import { RATINGS, type RatingName } from '@engram/contracts/learning';
import { useNavigate } from '@tanstack/react-router';
import {
  lazy,
  type RefObject,
  Suspense,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { Button } from '../../components/button';

import { InlineLoading } from '../../components/query-states';
import { deviceOf } from '../../entities/offline/device';
import { toastError } from '../../lib/errors';
import { m } from '../../lib/i18n';
import { queryClient } from '../../lib/query-client';
import { trpc } from '../../lib/trpc';
import { CardFace } from './card-face';
import { formatInterval } from './intervals';
import { useKeyboardHints } from './keyboard-hints';
import { progressWords } from './progress-words';
import { clearSavedSession, saveSession } from './saved-session';
import { PracticeSession, type SavedSession, type SessionItem, type SessionSnapshot } from './session';
import { practiceKeyAction } from './shortcuts';
import { playSounds } from './sounds';
import { practiceTransport } from './transport';
import { answerToType, compareTypedAnswer, suggestedRating, type TypedComparison } from './typed-answer';
import { TypedAnswerCompared, TypedAnswerField } from './typed-answer-view';

/** A note type's styling, loaded only for a session that shows a note (a first practice fetches no more code). */
const NoteTypeStyles = lazy(() =>
  import('../../components/card/note-type-styles').then((module) => ({ default: module.NoteTypeStyles })),
);

/** How long the end of a session waits for its reviews to reach the server before moving on anyway. */
const SETTLE_WAIT_MS = 3_000;

const RATING_LABELS: Record<RatingName, () => string> = {
  again: m.rating_again,
  hard: m.rating_hard,
  good: m.rating_good,
  easy: m.rating_easy,
};
const RATING_STYLES: Record<RatingName, string> = {
  again: 'bg-red-50 text-red-700 ring-red-200 hover:bg-red-100',
  hard: 'bg-amber-50 text-amber-800 ring-amber-200 hover:bg-amber-100',
  good: 'bg-emerald-50 text-emerald-700 ring-emerald-200 hover:bg-emerald-100',
  easy: 'bg-sky-50 text-sky-700 ring-sky-200 hover:bg-sky-100',
};

export type SessionSource = { items: SessionItem[] } | { saved: SavedSession<SessionItem> };

/** The session, made once, and its state as it changes. */
function usePracticeSession(source: SessionSource, userId: string) {
  const [session] = useState(() => {
    // Online, each review goes at once; offline, it is queued on the device (offline/practice-transport.ts).
    const options = { transport: practiceTransport(userId), onDeliveryError: toastError };
    return 'saved' in source
      ? PracticeSession.restore(source.saved, options)
      : new PracticeSession(source.items, options);
  });
  const state = useSyncExternalStore(session.subscribe, session.snapshot, session.snapshot);
  return { session, state };
}

/** Every change is kept for a reload, until the session ends. */
function useKeptForReload(
  session: PracticeSession<SessionItem>,
  userId: string,
  startedWith: string[] | undefined,
  finished: RefObject<boolean>,
) {
  useEffect(() => {
    const save = () => {
      if (!finished.current) saveSession(userId, startedWith, session.toJSON());
    };
    save();
    return session.subscribe(save);
  }, [session, userId, startedWith, finished]);
}

/**
 * A side's sounds play as it appears: the question's with each card, the answer's when it is revealed. Returns
 * the side shown last (the answer once revealed, else the question), for the replay key.
 */
function useCardSounds(card: RefObject<HTMLElement | null>, currentId: string | undefined, revealed: boolean) {
  const sideShown = useCallback(
    (answer: boolean) => card.current?.querySelector(`[data-side="${answer ? 'back' : 'front'}"]`),
    [card],
  );
  useEffect(() => {
    if (currentId !== undefined) playSounds(sideShown(revealed));
  }, [currentId, revealed, sideShown]);
  return sideShown;
}

/** Space or Enter reveals, 1–4 rate, U or Ctrl+Z undoes, R replays the sounds (shortcuts.ts). */
function usePracticeKeys(
  session: PracticeSession<SessionItem>,
  sideShown: (answer: boolean) => Element | null | undefined,
  finished: RefObject<boolean>,
) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const action = practiceKeyAction(event);
      if (!action || finished.current) return;
      event.preventDefault();
      if (action === 'reveal') session.reveal();
      else if (action === 'undo') session.undo();
      else if (action === 'replay') playSounds(sideShown(session.snapshot().revealed));
      else session.rate(action);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [session, sideShown, finished]);
}

/** Goes to the results with the counts so far; reviews still on their way keep going in the background. */
function useFinish(session: PracticeSession<SessionItem>, userId: string, finished: RefObject<boolean>) {
  const navigate = useNavigate();
  const [leaving, setLeaving] = useState(false);
  const finish = useCallback(() => {
    if (finished.current) return;
    finished.current = true;
    clearSavedSession(userId);
    setLeaving(true);
    const { cardCount, counts } = session.snapshot();
    const settled = session.settled();
    const timeout = new Promise((resolve) => setTimeout(resolve, SETTLE_WAIT_MS));
    // Leave first, then refresh: refetching the due list here would flash "nothing is due".
    void Promise.race([settled, timeout])
      .then(() => navigate({ to: '/practice/done', search: { cardCount, ...counts }, replace: true }))
      .then(() => settled)
      .then(() => queryClient.invalidateQueries({ queryKey: trpc.cards.pathKey() }))
      // The device takes the state the session left (and sends what it queued, if anything).
      .then(() => deviceOf(userId))
      .then((device) => device.sync());
  }, [session, navigate, userId, finished]);
  return { finish, leaving };
}

export function Session({
  source,
  userId,
  tags,
}: {
  source: SessionSource;
  userId: string;
  tags: string[] | undefined;
}) {
  const { session, state } = usePracticeSession(source, userId);
  const finished = useRef(false);
  const [startedWith] = useState(tags);
  useKeptForReload(session, userId, startedWith, finished);
  const keyboard = useKeyboardHints();
  const card = useRef<HTMLElement>(null);
  const sideShown = useCardSounds(card, state.current?.id, state.revealed);
  usePracticeKeys(session, sideShown, finished);
  const { finish, leaving } = useFinish(session, userId, finished);
  useEffect(() => {
    if (state.done && state.reviewed > 0) finish();
  }, [state, finish]);

  const typed = useTypedAnswer(state.current, state.revealed, state.reviewed);

  if (state.done || leaving) return <InlineLoading label={m.practice_saving()} />;
  const current = state.current;
  if (!current) return null;
  return (
    <div>
      {current.noteTypeId && (
        <Suspense fallback={null}>
          <NoteTypeStyles userId={userId} />
        </Suspense>
      )}
      <SessionBar session={session} state={state} onEnd={finish} />
      <CardShown
        session={session}
        state={state}
        card={card}
        front={current.front}
        back={current.back}
        noteTypeId={current.noteTypeId}
        typed={current.type === 'typed' || current.typed ? typed : undefined}
      />
      <div className="mt-6">
        {state.revealed ? (
          <RatingButtons
            session={session}
            state={state}
            keyboard={keyboard}
            suggested={typed.comparison ? suggestedRating(typed.comparison) : undefined}
          />
        ) : (
          <Button
            className="min-h-12 w-full py-3 text-base sm:text-sm"
            onClick={() => session.reveal()}
            aria-keyshortcuts="Space Enter"
          >
            {m.practice_reveal()}
            {keyboard && <kbd className="text-xs font-normal">{m.practice_space_key()}</kbd>}
          </Button>
        )}
        <p className="mt-4 text-center text-xs text-slate-500">
          {keyboard ? m.practice_shortcuts_hint() : m.practice_tap_hint()}
        </p>
      </div>
    </div>
  );
}

/** What in a card answers a tap itself, instead of showing the answer: a link, a hint, a field, a player. */
const OWN_TAPS = 'a, details, input, textarea, button, audio';

interface TypedAnswer {
  /** This showing of the card: a card that comes back later in the session (a learning step) asks afresh. */
  showing: string;
  text: string;
  setText: (text: string) => void;
  /** Once the answer shows: what was typed compared with it. */
  comparison: TypedComparison | undefined;
}

/** What the learner types for the current card (a typed-answer card), emptied for each card and each showing. */
function useTypedAnswer(current: SessionItem | undefined, revealed: boolean, answered: number): TypedAnswer {
  const showing = `${current?.id}:${answered}`;
  const [typed, setTyped] = useState({ showing, text: '' });
  const text = typed.showing === showing ? typed.text : '';
  const setText = useCallback((next: string) => setTyped({ showing, text: next }), [showing]);
  // Worked out once per answer shown, not on every render of the session after it. A typed card types its back; a
  // note's item, what its template's {{type:…}} names.
  const asked = !revealed
    ? undefined
    : current?.typed
      ? current.typed.expected
      : current?.type === 'typed'
        ? answerToType(current.back)
        : undefined;
  const ignoreAccents = current?.typed?.ignoreAccents ?? false;
  const comparison = useMemo(
    () => (asked === undefined ? undefined : compareTypedAnswer(asked, text, { ignoreAccents })),
    [asked, text, ignoreAccents],
  );
  return { showing, text, setText, comparison };
}

/**
 * The progress bar, and under it how many are done and left beside undo and end: two rows by design, so that on a
 * phone the buttons never wrap onto a row of their own (the count wraps between its words instead, and the
 * buttons are narrower there).
 */
function SessionBar({
  session,
  state,
  onEnd,
}: {
  session: PracticeSession<SessionItem>;
  state: SessionSnapshot<SessionItem>;
  onEnd: () => void;
}) {
  const total = state.reviewed + state.remaining;
  return (
    <div className="mb-6 space-y-1">
      <div
        className="h-2 overflow-hidden rounded-full bg-slate-200"
        role="progressbar"
        aria-label={m.practice_progress_label()}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={state.reviewed}
      >
        <div
          className="h-full rounded-full bg-brand-600 transition-[width] duration-300"
          style={{ width: `${total === 0 ? 0 : (state.reviewed / total) * 100}%` }}
        />
      </div>
      <div className="flex items-center justify-between gap-2">
        <p
          className="min-w-0 text-sm text-slate-500 tabular-nums [overflow-wrap:normal]"
          data-testid="session-progress"
        >
          {progressWords(state.reviewed, state.remaining)}
        </p>
        <div className="flex shrink-0">
          <Button
            variant="ghost"
            className="max-sm:px-2"
            disabled={!state.canUndo}
            onClick={() => session.undo()}
            aria-keyshortcuts="U Control+Z"
          >
            {m.practice_undo()}
          </Button>
          <Button variant="ghost" className="max-sm:px-2" disabled={state.reviewed === 0} onClick={onEnd}>
            {m.practice_end()}
          </Button>
        </div>
      </div>
    </div>
  );
}

/** The card: its question, and its answer once revealed. */
function CardShown({
  session,
  state,
  card,
  front,
  back,
  noteTypeId,
  typed,
}: {
  session: PracticeSession<SessionItem>;
  state: SessionSnapshot<SessionItem>;
  card: RefObject<HTMLElement | null>;
  front: string;
  /** A note's type: its styling applies within the card (NoteTypeStyles). */
  noteTypeId?: string | undefined;
  back: string;
  /** A typed-answer card's field, then its comparison. */
  typed?: TypedAnswer;
}) {
  return (
    // A tap anywhere on the question shows the answer (a link in it still opens, a note's hint still unfolds);
    // "Show answer" below is the same for keyboards and screen readers.
    // biome-ignore lint/a11y/useKeyWithClickEvents: Space, Enter and the "Show answer" button do this by keyboard
    <article
      ref={card}
      className={`rounded-2xl bg-white shadow-sm ring-1 ring-slate-200 ${state.revealed ? '' : 'cursor-pointer'}`}
      data-note-type={noteTypeId}
      aria-live="polite"
      onClick={(event) => {
        if (!state.revealed && !(event.target as HTMLElement).closest(OWN_TAPS)) session.reveal();
      }}
    >
      <CardFace markdown={front} label={m.practice_front_label()} side="front" />
      {typed && !state.revealed && (
        <TypedAnswerField
          key={typed.showing}
          value={typed.text}
          onChange={typed.setText}
          onSubmit={() => session.reveal()}
        />
      )}
      {state.revealed && (
        <div className="border-t border-dashed border-slate-200">
          {typed?.comparison && <TypedAnswerCompared comparison={typed.comparison} />}
          <CardFace markdown={back} label={m.practice_back_label()} side="back" />
        </div>
      )}
    </article>
  );
}

/**
 * The four ratings, each with the interval it gives and, with a keyboard, its key. After a typed answer, the rating
 * its comparison suggests is marked and has the focus (Enter takes it), but any may be chosen.
 */
function RatingButtons({
  session,
  state,
  keyboard,
  suggested,
}: {
  session: PracticeSession<SessionItem>;
  state: SessionSnapshot<SessionItem>;
  keyboard: boolean;
  suggested?: RatingName;
}) {
  const suggestedButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (suggested) suggestedButton.current?.focus();
  }, [suggested]);
  return (
    <fieldset className="grid grid-cols-2 gap-3 sm:grid-cols-4">
      <legend className="sr-only">{m.practice_rate_label()}</legend>
      {RATINGS.map((rating, index) => (
        <button
          key={rating}
          ref={rating === suggested ? suggestedButton : undefined}
          type="button"
          onClick={() => session.rate(rating)}
          aria-keyshortcuts={String(index + 1)}
          aria-description={rating === suggested ? m.practice_typed_suggested() : undefined}
          data-suggested={rating === suggested || undefined}
          className={`min-h-12 rounded-xl px-4 py-3 text-base font-semibold ring-1 transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 sm:text-sm ${RATING_STYLES[rating]} ${rating === suggested ? 'ring-2 ring-current' : ''}`}
        >
          {rating === suggested && (
            <span aria-hidden="true" className="mr-1">
              ★
            </span>
          )}
          {RATING_LABELS[rating]()}
          {state.intervals && (
            <span className="ml-2 font-normal tabular-nums" data-testid={`interval-${rating}`}>
              {formatInterval(state.intervals[rating])}
            </span>
          )}
          {keyboard && <kbd className="ml-2 text-xs font-normal">{index + 1}</kbd>}
        </button>
      ))}
    </fieldset>
  );
}
