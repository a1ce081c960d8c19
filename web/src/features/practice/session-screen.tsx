// /practice/session: the due items (filtered by the tags in the URL), one at a time. Space or Enter reveals
// (or a tap on the card or on "Show answer"), 1–4 rate, U or Ctrl+Z undoes; each rating button names the
// interval it gives. Each rating shows the next card at once while PracticeSession sends the review in the
// background; items rated in the session come back when they fall due (learning ahead up to 20 minutes).
// The session is kept in this tab's storage, so a reload goes on where it was. At the end the results page
// gets the counts. Keys are named only on a device with a keyboard-like pointer (keyboard-hints.ts).
import { RATINGS, type RatingName } from '@engram/contracts/learning';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { type ReactNode, useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { Button, buttonClass } from '../../components/button';
import { InlineError, InlineLoading } from '../../components/query-states';
import { deviceOf } from '../../entities/offline/device';
import { SyncStatus, useDeviceStatus } from '../../entities/offline/sync-status';
import { toastError } from '../../lib/errors';
import { m } from '../../lib/i18n';
import { useOnline } from '../../lib/online';
import { queryClient } from '../../lib/query-client';
import { startOfflineAfterRender } from '../../lib/service-worker-loader';
import { trpc } from '../../lib/trpc';
import { CardFace } from './card-face';
import { formatInterval } from './intervals';
import { useKeyboardHints } from './keyboard-hints';
import { dueOptions } from './queries';
import { clearSavedSession, loadSavedSession, saveSession } from './saved-session';
import { PracticeSession, type SavedSession, type SessionItem } from './session';
import { practiceKeyAction } from './shortcuts';
import { playSounds } from './sounds';
import { isNetworkFailure, practiceTransport } from './transport';

const route = getRouteApi('/protected/practice/session');

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

type SessionSource = { items: SessionItem[] } | { saved: SavedSession<SessionItem> };

function Session({ source, userId, tags }: { source: SessionSource; userId: string; tags: string[] | undefined }) {
  const [session] = useState(() => {
    // Online, each review goes at once; offline, it is queued on the device (offline/practice-transport.ts).
    const options = { transport: practiceTransport(userId), onDeliveryError: toastError };
    return 'saved' in source
      ? PracticeSession.restore(source.saved, options)
      : new PracticeSession(source.items, options);
  });
  const state = useSyncExternalStore(session.subscribe, session.snapshot, session.snapshot);
  const navigate = useNavigate();
  const finished = useRef(false);
  const [leaving, setLeaving] = useState(false);
  const total = state.reviewed + state.remaining;
  const [startedWith] = useState(tags);

  // Every change is kept for a reload, until the session ends.
  useEffect(() => {
    const save = () => {
      if (!finished.current) saveSession(userId, startedWith, session.toJSON());
    };
    save();
    return session.subscribe(save);
  }, [session, userId, startedWith]);
  const keyboard = useKeyboardHints();
  const card = useRef<HTMLElement>(null);
  /** The side shown last: the answer once revealed, else the question. */
  const sideShown = useCallback(
    (revealed: boolean) => card.current?.querySelector(`[data-side="${revealed ? 'back' : 'front'}"]`),
    [],
  );
  // A side's sounds play as it appears: the question's with each card, the answer's when it is revealed.
  const currentId = state.current?.id;
  const revealed = state.revealed;
  useEffect(() => {
    if (currentId !== undefined) playSounds(sideShown(revealed));
  }, [currentId, revealed, sideShown]);

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
  }, [session, sideShown]);

  /** Goes to the results with the counts so far; reviews still on their way keep going in the background. */
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
  }, [session, navigate, userId]);

  useEffect(() => {
    if (state.done && state.reviewed > 0) finish();
  }, [state, finish]);

  if (state.done || leaving) return <InlineLoading label={m.practice_saving()} />;
  const current = state.current;
  if (!current) return null;

  return (
    <div>
      <div className="mb-6 flex flex-wrap items-center gap-x-4 gap-y-2">
        <div
          className="h-2 min-w-16 flex-1 overflow-hidden rounded-full bg-slate-200"
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
        <span className="text-sm text-slate-500 tabular-nums">
          {m.practice_progress({ done: state.reviewed, total })}
        </span>
        <Button
          variant="ghost"
          disabled={!state.canUndo}
          onClick={() => session.undo()}
          aria-keyshortcuts="U Control+Z"
        >
          {m.practice_undo()}
        </Button>
        <Button variant="ghost" disabled={state.reviewed === 0} onClick={finish}>
          {m.practice_end()}
        </Button>
      </div>

      {/* A tap anywhere on the question shows the answer (a link in it still opens); "Show answer" below is
          the same for keyboards and screen readers. */}
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: Space, Enter and the "Show answer" button do this by keyboard */}
      <article
        ref={card}
        className={`rounded-2xl bg-white shadow-sm ring-1 ring-slate-200 ${state.revealed ? '' : 'cursor-pointer'}`}
        aria-live="polite"
        onClick={(event) => {
          if (!state.revealed && !(event.target as HTMLElement).closest('a')) session.reveal();
        }}
      >
        <CardFace markdown={current.front} label={m.practice_front_label()} side="front" />
        {state.revealed && (
          <div className="border-t border-dashed border-slate-200">
            <CardFace markdown={current.back} label={m.practice_back_label()} side="back" />
          </div>
        )}
      </article>

      <div className="mt-6">
        {state.revealed ? (
          <fieldset className="grid grid-cols-2 gap-3 sm:grid-cols-4">
            <legend className="sr-only">{m.practice_rate_label()}</legend>
            {RATINGS.map((rating, index) => (
              <button
                key={rating}
                type="button"
                onClick={() => session.rate(rating)}
                aria-keyshortcuts={String(index + 1)}
                className={`min-h-12 rounded-xl px-4 py-3 text-base font-semibold ring-1 transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 sm:text-sm ${RATING_STYLES[rating]}`}
              >
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

export function PracticeSessionScreen() {
  const { tags } = route.useSearch();
  const { session } = route.useRouteContext();
  const userId = session.user.id;
  // Practice is what works offline: the app readies itself for it here too.
  useEffect(() => startOfflineAfterRender(session), [session]);
  // Read once: a session left in this tab (a reload) goes on instead of starting from the due list.
  const [saved] = useState(() => loadSavedSession<SessionItem>(userId, tags));
  const online = useOnline();
  const device = useDeviceStatus(userId);
  const due = useQuery({ ...dueOptions(tags), refetchOnWindowFocus: false, enabled: !saved && online });
  // Without the network (or when the due list cannot be reached), the session starts from the cards kept on this
  // device, scheduled there as the server would.
  const fromDevice = !saved && (!online || (due.isError && isNetworkFailure(due.error)));
  const kept = useQuery({
    queryKey: ['offline', 'due', userId, tags ?? []],
    queryFn: async () => ({ items: await (await deviceOf(userId)).dueToday(tags) }),
    enabled: fromDevice,
    networkMode: 'always',
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
  const source = fromDevice ? kept : due;

  let body: ReactNode;
  if (saved) body = <Session source={{ saved }} userId={userId} tags={tags} />;
  else if (source.isPending) body = <InlineLoading label={m.practice_due_loading()} />;
  else if (source.isError)
    body = <InlineError message={m.practice_due_failed()} onRetry={() => void source.refetch()} />;
  else if (source.data.items.length === 0) {
    body = (
      <div className="rounded-2xl border-2 border-dashed border-slate-200 bg-white/60 px-6 py-14 text-center">
        <p className="text-lg font-semibold text-slate-900">{m.practice_nothing_due_title()}</p>
        <p className="mt-1 text-sm text-slate-500">{m.practice_nothing_due_text()}</p>
        <div className="mt-6 flex justify-center gap-3">
          <Link to="/practice/new" className={buttonClass('secondary')}>
            {m.practice_choose_tags()}
          </Link>
          <Link to="/dashboard" className={buttonClass('primary')}>
            {m.practice_back_to_dashboard()}
          </Link>
        </div>
      </div>
    );
  } else body = <Session source={{ items: source.data.items }} userId={userId} tags={tags} />;

  return (
    <main id="main" tabIndex={-1} className="mx-auto max-w-3xl px-6 py-10">
      <h1 className="sr-only">{m.practice_session_title()}</h1>
      <div className="mb-4 empty:hidden">
        <SyncStatus status={device} />
      </div>
      {body}
    </main>
  );
}
