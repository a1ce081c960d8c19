// "/billing/cancel": where Stripe Checkout returns when the learner backs out. Nothing was charged.
import { Link } from '@tanstack/react-router';
import { buttonClass } from '../../components/button';
import { NeedsNetwork } from '../../components/needs-network';
import { m } from '../../lib/i18n';

export function CheckoutCancelScreen() {
  return (
    <main className="mx-auto max-w-2xl px-6 py-16 text-center">
      <NeedsNetwork />
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{m.billing_cancel_title()}</h1>
      <p className="mt-2 text-sm text-slate-600">{m.billing_cancel_text()}</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to="/billing/plans" className={buttonClass('primary')}>
          {m.billing_see_plans()}
        </Link>
        <Link to="/dashboard" className={buttonClass('secondary')}>
          {m.billing_to_dashboard()}
        </Link>
      </div>
    </main>
  );
}
