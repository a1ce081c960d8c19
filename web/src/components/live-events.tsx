// A signed-in tab listens for what happens elsewhere to its learner (GET /api/live, Server-Sent Events): when an
// Anki tool asks to browse cards (AnkiConnect's guiBrowse, Yomitan's "view note"), the tab shows them on the
// Browse screen, or, in the middle of a practice session, offers to in a toast. The browser reconnects the stream
// by itself when it drops.
import { useRouter } from '@tanstack/react-router';
import { useEffect } from 'react';
import { m } from '../lib/i18n';
import { toast } from '../lib/toast';

export function LiveEvents() {
  const router = useRouter();
  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const events = new EventSource('/api/live');
    events.addEventListener('browse', (event) => {
      let query = '';
      try {
        query = String((JSON.parse((event as MessageEvent<string>).data) as { query?: unknown }).query ?? '');
      } catch {
        return;
      }
      const show = () => void router.navigate({ to: '/browse', search: { q: query || undefined } });
      if (router.state.location.pathname.startsWith('/practice/session')) {
        toast.info(m.live_browse_asked(), { action: { label: m.live_browse_show(), onClick: show } });
      } else {
        show();
        toast.info(m.live_browse_shown());
      }
    });
    return () => events.close();
  }, [router]);
  return null;
}
