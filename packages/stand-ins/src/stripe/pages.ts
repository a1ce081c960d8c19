// The stand-in's checkout and customer-portal pages, plainly labelled as a test stand-in: a learner on a
// laptop can "pay" for a plan, then cancel, resume, switch plans or make a renewal succeed or fail, and
// Engram receives the same signed webhooks Stripe would send. Like Stripe's pages with the `auto` locale (what
// Engram asks for by giving none), they speak the browser's language: Portuguese or English.
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

const ENGLISH = {
  lang: 'en',
  banner: 'Test stand-in: this page is not Stripe. No card is charged and no money moves.',
  backToEngram: 'Back to Engram',
  expiredTitle: 'Checkout expired',
  expired: 'This checkout has expired',
  completeTitle: 'Checkout complete',
  complete: 'This checkout is complete',
  checkoutTitle: 'Test checkout (stand-in)',
  subscribeTo: (what: string) => `Subscribe to ${what}`,
  pay: (amount: string) => `Pay ${amount} (test)`,
  decline: 'Decline the card (test)',
  declined: 'Your card was declined (test).',
  cancelCheckout: 'Cancel and go back to Engram',
  per: { month: 'per month', year: 'per year' } as Record<string, string>,
  portalTitle: 'Test customer portal (stand-in)',
  portalHeading: 'Your Engram subscription (test portal)',
  noSubscription: 'No active subscription.',
  status: (status: string) => `Status: ${status}.`,
  statuses: {} as Record<string, string>,
  endsOn: (day: string) => `Ends on ${day}.`,
  renewsOn: (day: string) => `Renews on ${day}.`,
  resume: 'Resume the subscription',
  cancelAtPeriodEnd: 'Cancel at the end of the period',
  switchPlan: 'Switch plan',
  switchTo: (what: string) => `Switch to ${what}`,
  testControls: 'Test controls',
  renew: 'Renew now (payment succeeds)',
  failRenewal: 'Renew now (payment fails)',
  cancelNow: 'Cancel immediately',
  notFound: 'Not found',
};

type Texts = typeof ENGLISH;

const PORTUGUESE: Texts = {
  lang: 'pt-BR',
  banner: 'Substituto de teste: esta página não é o Stripe. Nenhum cartão é cobrado e nenhum dinheiro é movimentado.',
  backToEngram: 'Voltar ao Engram',
  expiredTitle: 'Pagamento expirado',
  expired: 'Este pagamento expirou',
  completeTitle: 'Pagamento concluído',
  complete: 'Este pagamento foi concluído',
  checkoutTitle: 'Pagamento de teste (substituto)',
  subscribeTo: (what) => `Assinar ${what}`,
  pay: (amount) => `Pagar ${amount} (teste)`,
  decline: 'Recusar o cartão (teste)',
  declined: 'Seu cartão foi recusado (teste).',
  cancelCheckout: 'Cancelar e voltar ao Engram',
  per: { month: 'por mês', year: 'por ano' },
  portalTitle: 'Portal do cliente de teste (substituto)',
  portalHeading: 'Sua assinatura do Engram (portal de teste)',
  noSubscription: 'Nenhuma assinatura ativa.',
  status: (status) => `Situação: ${status}.`,
  statuses: { active: 'ativa', past_due: 'em atraso', canceled: 'cancelada', unpaid: 'não paga', trialing: 'em teste' },
  endsOn: (day) => `Termina em ${day}.`,
  renewsOn: (day) => `Renova em ${day}.`,
  resume: 'Retomar a assinatura',
  cancelAtPeriodEnd: 'Cancelar no fim do período',
  switchPlan: 'Trocar de plano',
  switchTo: (what) => `Trocar para ${what}`,
  testControls: 'Controles de teste',
  renew: 'Renovar agora (pagamento aprovado)',
  failRenewal: 'Renovar agora (pagamento recusado)',
  cancelNow: 'Cancelar imediatamente',
  notFound: 'Não encontrado',
};

/** The language of a page: Portuguese when the browser prefers it to English, as Stripe's `auto` locale does. */
export function textsFor(acceptLanguage: string | undefined): Texts {
  const preferred = (acceptLanguage ?? '')
    .split(',')
    .map((entry) => {
      const [tag = '', ...parameters] = entry.trim().split(';');
      const quality = parameters.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim().toLowerCase(), quality: quality === undefined ? 1 : Number(quality) };
    })
    .filter(({ tag, quality }) => tag !== '' && quality > 0)
    .sort((a, b) => b.quality - a.quality)
    .find(({ tag }) => /^(pt|en)(-|$)/.test(tag));
  return preferred?.tag.startsWith('pt') ? PORTUGUESE : ENGLISH;
}

const money = (texts: Texts, price: StandInPrice) =>
  new Intl.NumberFormat(texts.lang, { style: 'currency', currency: price.currency.toUpperCase() }).format(
    price.unit_amount / 100,
  );

const describe = (texts: Texts, price: StandInPrice) => {
  const product = PRODUCT_NAMES[price.metadata.plan as keyof typeof PRODUCT_NAMES];
  const interval = price.recurring.interval;
  return `${product}, ${money(texts, price)} ${texts.per[interval] ?? interval}`;
};

const date = (texts: Texts, seconds: number) =>
  new Intl.DateTimeFormat(texts.lang, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(seconds * 1000));

const STYLE = `body{font-family:system-ui,sans-serif;background:#f8fafc;color:#0f172a;margin:0}
main{max-width:36rem;margin:3rem auto;padding:2rem;background:#fff;border-radius:1rem;box-shadow:0 1px 3px #0002}
.banner{background:#fef3c7;color:#78350f;border:1px solid #f59e0b;border-radius:.5rem;padding:.75rem;font-weight:600}
button{font:inherit;padding:.6rem 1rem;border-radius:.5rem;border:0;background:#4338ca;color:#fff;cursor:pointer;margin:.25rem 0}
button.secondary{background:#e2e8f0;color:#0f172a}.alert{color:#991b1b;font-weight:600}a{color:#3730a3}`;

function page(res: ServerResponse, texts: Texts, title: string, body: string, status = 200) {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-language': texts.lang,
    'cache-control': 'no-store',
    vary: 'Accept-Language',
  });
  res.end(`<!doctype html><html lang="${texts.lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${html(title)}</title>
<style>${STYLE}</style></head><body><main>
<p class="banner" role="note">${html(texts.banner)}</p>
${body}</main></body></html>`);
}

const button = (action: string, label: string, extra = '', secondary = false) =>
  `<form method="post"><input type="hidden" name="action" value="${html(action)}">${extra}
<button${secondary ? ' class="secondary"' : ''}>${html(label)}</button></form>`;

function redirect(res: ServerResponse, location: string) {
  res.writeHead(303, { location }).end();
}

function checkoutPage(res: ServerResponse, texts: Texts, store: StandInStore, session: Json, alert = '') {
  const price = store.price(session.line_items_price);
  if (session.status === 'expired') {
    return page(
      res,
      texts,
      texts.expiredTitle,
      `<h1>${html(texts.expired)}</h1>
<p><a href="${html(session.cancel_url)}">${html(texts.backToEngram)}</a></p>`,
    );
  }
  if (session.status !== 'open') {
    return page(
      res,
      texts,
      texts.completeTitle,
      `<h1>${html(texts.complete)}</h1>
<p><a href="${html(String(session.success_url).replace('{CHECKOUT_SESSION_ID}', String(session.id)))}">${html(texts.backToEngram)}</a></p>`,
    );
  }
  page(
    res,
    texts,
    texts.checkoutTitle,
    `<h1>${html(texts.subscribeTo(describe(texts, price)))}</h1>
${alert && `<p class="alert" role="alert">${html(alert)}</p>`}
${button('pay', texts.pay(money(texts, price)))}
${button('decline', texts.decline, '', true)}
<p><a href="${html(session.cancel_url)}">${html(texts.cancelCheckout)}</a></p>`,
  );
}

function portalPage(res: ServerResponse, texts: Texts, store: StandInStore, portal: Json) {
  const subscriptions = store.subscriptionsOf(portal.customer as string);
  const live = subscriptions.find((subscription) => subscription.status !== 'canceled');
  let body = `<h1>${html(texts.portalHeading)}</h1>`;
  if (!live) body += `<p>${html(texts.noSubscription)}</p>`;
  else {
    const item = itemOf(live);
    const target = `<input type="hidden" name="subscription" value="${html(live.id)}">`;
    const others = store.prices.filter((p) => p.currency === item.price.currency && p.id !== item.price.id);
    const status = String(live.status);
    const ends = date(texts, item.current_period_end);
    body += `<p>${html(describe(texts, item.price))}. ${html(texts.status(texts.statuses[status] ?? status))}
${html(live.cancel_at_period_end ? texts.endsOn(ends) : texts.renewsOn(ends))}</p>
${live.cancel_at_period_end ? button('resume', texts.resume, target) : button('cancel_at_period_end', texts.cancelAtPeriodEnd, target)}
<h2>${html(texts.switchPlan)}</h2>
${others.map((p) => button('switch', texts.switchTo(describe(texts, p)), `${target}<input type="hidden" name="price" value="${html(p.id)}">`, true)).join('\n')}
<h2>${html(texts.testControls)}</h2>
${button('renew', texts.renew, target, true)}
${button('fail_renewal', texts.failRenewal, target, true)}
${button('cancel_now', texts.cancelNow, target, true)}`;
  }
  page(
    res,
    texts,
    texts.portalTitle,
    `${body}
<p><a href="${html(portal.return_url ?? '/')}">${html(texts.backToEngram)}</a></p>`,
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
  const texts = textsFor(req.headers['accept-language']);
  try {
    const form = req.method === 'POST' ? (qs.parse(await readBody(req)) as Json) : {};
    if (kind === 'checkout') {
      const session = ctx.store.session(id);
      if (form.action === 'pay') {
        ctx.changed(ctx.store.payCheckout(id).events);
        redirect(res, String(session.success_url).replace('{CHECKOUT_SESSION_ID}', id));
      } else checkoutPage(res, texts, ctx.store, session, form.action === 'decline' ? texts.declined : '');
      return true;
    }
    const portal = ctx.store.portalSession(id);
    const act = PORTAL_ACTIONS[String(form.action)];
    if (act) {
      ctx.changed(act(ctx.store, form).events);
      redirect(res, req.url ?? '.');
    } else portalPage(res, texts, ctx.store, portal);
  } catch (error) {
    if (!(error instanceof StripeApiError)) throw error;
    page(res, texts, texts.notFound, `<h1>${html(error.message)}</h1>`, error.status);
  }
  return true;
}
