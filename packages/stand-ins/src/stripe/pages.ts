// The stand-in's checkout and customer-portal pages, plainly labelled as a test stand-in: a learner on a
// laptop can "pay" for a plan, then cancel, resume, switch plans or make a renewal succeed or fail, and
// Engram receives the same signed webhooks Stripe would send.
import type { IncomingMessage, ServerResponse } from 'node:http';
import qs from 'qs';
import { readBody } from './api.js';
import { itemOf, type StandInEvent, StripeApiError } from './objects.js';
import { PRODUCT_NAMES, type StandInPrice } from './prices.js';
import type { StandInStore } from './store.js';

type Json = Record<string, unknown>;

export interface PagesContext {
  store: StandInStore;
  changed(events: StandInEvent[]): void;
}

const html = (value: unknown) => String(value).replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

const money = (price: StandInPrice) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: price.currency.toUpperCase() }).format(
    price.unit_amount / 100,
  );

const describe = (price: StandInPrice) =>
  `${PRODUCT_NAMES[price.metadata.plan as keyof typeof PRODUCT_NAMES]}, ${money(price)} per ${price.recurring.interval}`;

const date = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

const STYLE = `body{font-family:system-ui,sans-serif;background:#f8fafc;color:#0f172a;margin:0}
main{max-width:36rem;margin:3rem auto;padding:2rem;background:#fff;border-radius:1rem;box-shadow:0 1px 3px #0002}
.banner{background:#fef3c7;color:#78350f;border:1px solid #f59e0b;border-radius:.5rem;padding:.75rem;font-weight:600}
button{font:inherit;padding:.6rem 1rem;border-radius:.5rem;border:0;background:#4338ca;color:#fff;cursor:pointer;margin:.25rem 0}
button.secondary{background:#e2e8f0;color:#0f172a}.alert{color:#991b1b;font-weight:600}a{color:#3730a3}`;

function page(res: ServerResponse, title: string, body: string, status = 200) {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${html(title)}</title>
<style>${STYLE}</style></head><body><main>
<p class="banner" role="note">Test stand-in: this page is not Stripe. No card is charged and no money moves.</p>
${body}</main></body></html>`);
}

const button = (action: string, label: string, extra = '', secondary = false) =>
  `<form method="post"><input type="hidden" name="action" value="${html(action)}">${extra}
<button${secondary ? ' class="secondary"' : ''}>${html(label)}</button></form>`;

function redirect(res: ServerResponse, location: string) {
  res.writeHead(303, { location }).end();
}

function checkoutPage(res: ServerResponse, store: StandInStore, session: Json, alert = '') {
  const price = store.price(session.line_items_price);
  if (session.status === 'expired') {
    return page(
      res,
      'Checkout expired',
      `<h1>This checkout has expired</h1>
<p><a href="${html(session.cancel_url)}">Back to Engram</a></p>`,
    );
  }
  if (session.status !== 'open') {
    return page(
      res,
      'Checkout complete',
      `<h1>This checkout is complete</h1>
<p><a href="${html(String(session.success_url).replace('{CHECKOUT_SESSION_ID}', String(session.id)))}">Back to Engram</a></p>`,
    );
  }
  page(
    res,
    'Test checkout (stand-in)',
    `<h1>Subscribe to ${html(describe(price))}</h1>
${alert && `<p class="alert" role="alert">${html(alert)}</p>`}
${button('pay', `Pay ${money(price)} (test)`)}
${button('decline', 'Decline the card (test)', '', true)}
<p><a href="${html(session.cancel_url)}">Cancel and go back to Engram</a></p>`,
  );
}

function portalPage(res: ServerResponse, store: StandInStore, portal: Json) {
  const subscriptions = store.subscriptionsOf(portal.customer as string);
  const live = subscriptions.find((subscription) => subscription.status !== 'canceled');
  let body = '<h1>Your Engram subscription (test portal)</h1>';
  if (!live) body += '<p>No active subscription.</p>';
  else {
    const item = itemOf(live);
    const target = `<input type="hidden" name="subscription" value="${html(live.id)}">`;
    const others = store.prices.filter((p) => p.currency === item.price.currency && p.id !== item.price.id);
    body += `<p>${html(describe(item.price))}. Status: ${html(live.status)}.
${live.cancel_at_period_end ? `Ends on ${date(item.current_period_end)}.` : `Renews on ${date(item.current_period_end)}.`}</p>
${live.cancel_at_period_end ? button('resume', 'Resume the subscription', target) : button('cancel_at_period_end', 'Cancel at the end of the period', target)}
<h2>Switch plan</h2>
${others.map((p) => button('switch', `Switch to ${describe(p)}`, `${target}<input type="hidden" name="price" value="${html(p.id)}">`, true)).join('\n')}
<h2>Test controls</h2>
${button('renew', 'Renew now (payment succeeds)', target, true)}
${button('fail_renewal', 'Renew now (payment fails)', target, true)}
${button('cancel_now', 'Cancel immediately', target, true)}`;
  }
  page(
    res,
    'Test customer portal (stand-in)',
    `${body}
<p><a href="${html(portal.return_url ?? '/')}">Back to Engram</a></p>`,
  );
}

const PORTAL_ACTIONS: Record<string, (store: StandInStore, form: Json) => { events: StandInEvent[] }> = {
  cancel_at_period_end: (store, form) =>
    store.updateSubscription(String(form.subscription), { cancel_at_period_end: 'true' }),
  resume: (store, form) => store.updateSubscription(String(form.subscription), { cancel_at_period_end: 'false' }),
  switch: (store, form) => store.updateSubscription(String(form.subscription), { price: form.price }),
  renew: (store, form) => store.renew(String(form.subscription)),
  fail_renewal: (store, form) => store.failRenewal(String(form.subscription)),
  cancel_now: (store, form) => store.cancelSubscription(String(form.subscription)),
};

/** `/checkout/:id` and `/portal/:id` (below the pages' base path); false when the path is neither. */
export async function handlePage(ctx: PagesContext, req: IncomingMessage, res: ServerResponse, path: string) {
  const [, kind, id = ''] = /^\/(checkout|portal)\/([^/]+)$/.exec(path) ?? [];
  if (!kind) return false;
  try {
    const form = req.method === 'POST' ? (qs.parse(await readBody(req)) as Json) : {};
    if (kind === 'checkout') {
      const session = ctx.store.session(id);
      if (form.action === 'pay') {
        ctx.changed(ctx.store.payCheckout(id).events);
        redirect(res, String(session.success_url).replace('{CHECKOUT_SESSION_ID}', id));
      } else checkoutPage(res, ctx.store, session, form.action === 'decline' ? 'Your card was declined (test).' : '');
      return true;
    }
    const portal = ctx.store.portalSession(id);
    const act = PORTAL_ACTIONS[String(form.action)];
    if (act) {
      ctx.changed(act(ctx.store, form).events);
      redirect(res, req.url ?? '.');
    } else portalPage(res, ctx.store, portal);
  } catch (error) {
    if (!(error instanceof StripeApiError)) throw error;
    page(res, 'Not found', `<h1>${html(error.message)}</h1>`, error.status);
  }
  return true;
}
