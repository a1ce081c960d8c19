// /practice/session: the due items (filtered by the tags in the URL), one at a time. Space or Enter reveals
// (or a tap on the card or on "Show answer"), 1–4 rate, U or Ctrl+Z undoes; each rating button names the
// interval it gives. Each rating shows the next card at once while PracticeSession sends the review in the
// background; items rated in the session come back when they fall due (learning ahead up to 20 minutes).
// The session is kept in this tab's storage, so a reload goes on where it was. At the end the results page
// gets the counts. Keys are named only on a device with a keyboard-like pointer (keyboard-hints.ts). The session
// itself, on screen, is session-view.tsx.
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { type ReactNode, useEffect, useState } from 'react';
import { buttonClass } from '../../components/button';
import { InlineError, InlineLoading } from '../../components/query-states';
import { deviceOf } from '../../entities/offline/device';
import { SyncStatus, useDeviceStatus } from '../../entities/offline/sync-status';
import { m } from '../../lib/i18n';
import { useOnline } from '../../lib/online';
import { startOfflineAfterRender } from '../../lib/service-worker-loader';
import { dueOptions } from './queries';
import { loadSavedSession } from './saved-session';
import type { SessionItem } from './session';
import { Session } from './session-view';
import { isNetworkFailure } from './transport';

const route = getRouteApi('/protected/practice/session');

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
