// The signed-in app's sections, in a row in the wide header or one under another in the narrow header's menu.
// Shown only to onboarded users: the protected group would send anyone else back to /onboarding.
import { Link } from '@tanstack/react-router';
import { m } from '../lib/i18n';

const ROW_LINK =
  'rounded-md px-2.5 py-1.5 text-sm font-medium whitespace-nowrap text-slate-600 transition hover:bg-slate-100 hover:text-slate-900';
const COLUMN_LINK =
  'flex min-h-11 items-center rounded-lg px-3 py-2 text-base font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900';
const ACTIVE = { className: 'bg-slate-100 text-slate-900' };

export function AppNav({ admin, layout }: { admin: boolean; layout: 'row' | 'column' }) {
  const className = layout === 'row' ? ROW_LINK : COLUMN_LINK;
  return (
    <nav aria-label={m.nav_main()} className={layout === 'row' ? 'flex items-center gap-1' : 'flex flex-col gap-1'}>
      <Link to="/dashboard" className={className} activeProps={ACTIVE}>
        {m.nav_dashboard()}
      </Link>
      <Link to="/practice/new" className={className} activeProps={ACTIVE}>
        {m.nav_practice()}
      </Link>
      <Link to="/browse" className={className} activeProps={ACTIVE}>
        {m.nav_browse()}
      </Link>
      <Link to="/import" className={className} activeProps={ACTIVE}>
        {m.nav_import()}
      </Link>
      <Link to="/billing/plans" className={className} activeProps={ACTIVE}>
        {m.nav_plans()}
      </Link>
      <Link to="/account/$pathname" params={{ pathname: 'organizations' }} className={className} activeProps={ACTIVE}>
        {m.nav_organizations()}
      </Link>
      <Link to="/settings" className={className} activeProps={ACTIVE}>
        {m.nav_settings()}
      </Link>
      {admin && (
        <Link to="/admin" className={className} activeProps={ACTIVE}>
          {m.nav_admin()}
        </Link>
      )}
    </nav>
  );
}
