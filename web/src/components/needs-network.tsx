// Said at the top of a screen that cannot work without the network, while the browser has none: its loads would
// wait and its actions fail. Nothing while online. (Practice works offline: lib/online.ts, entities/offline/.)
import { m } from '../lib/i18n';
import { useOnline } from '../lib/online';

export function NeedsNetwork() {
  if (useOnline()) return null;
  return (
    <p role="status" className="mb-6 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200">
      {m.offline_needs_network()}
    </p>
  );
}
