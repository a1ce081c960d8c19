// The two sides of an organization's screens: managing it (better-auth-ui's views: settings, members,
// teams, API keys) and learning together in it (shared decks, assignments, progress).
import { Link } from '@tanstack/react-router';
import { m } from '../../lib/i18n';

const TAB = 'rounded-md px-3 py-1.5 text-sm font-medium transition hover:bg-slate-100 hover:text-slate-900';
const tabClass = (active: boolean) => `${TAB} ${active ? 'bg-slate-100 text-slate-900' : 'text-slate-600'}`;

export function OrganizationNav({ slug, current }: { slug: string; current: 'manage' | 'learning' }) {
  return (
    <nav aria-label={m.organization_nav()} className="mb-8 flex gap-2 border-b border-slate-200 pb-3">
      <Link
        to="/organization/$slug/$pathname"
        params={{ slug, pathname: 'settings' }}
        className={tabClass(current === 'manage')}
        aria-current={current === 'manage' ? 'page' : undefined}
      >
        {m.organization_nav_manage()}
      </Link>
      <Link
        to="/organization/$slug/learning"
        params={{ slug }}
        className={tabClass(current === 'learning')}
        aria-current={current === 'learning' ? 'page' : undefined}
      >
        {m.organization_nav_learning()}
      </Link>
    </nav>
  );
}
