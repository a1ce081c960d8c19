// "/privacy": the data Engram keeps and why, the processors that handle it (the outside services
// of docs/product.md#what-engram-is), the cookies, how long data is kept, and the reader's rights.

import { SupportContact } from '../../components/support-contact';
import { CONSENT_COOKIE, CONSENT_DAYS, SESSION_COOKIE } from '../../lib/consent-settings';
import { m } from '../../lib/i18n';
import { InfoPage, type InfoSection } from './info-page';
import { lastUpdated } from './updated';

function List({ items }: { items: string[] }) {
  return (
    <ul className="list-disc space-y-1 pl-5">
      {items.map((item) => (
        <li key={item}>{item}</li>
      ))}
    </ul>
  );
}

function CookieTable() {
  const rows = [
    [SESSION_COOKIE, m.consent_cookie_session(), m.consent_expiry_session()],
    [CONSENT_COOKIE, m.consent_cookie_consent(), m.consent_expiry_days({ days: CONSENT_DAYS })],
    ['_ga, _ga_*', m.consent_cookie_ga(), m.consent_expiry_years({ years: 2 })],
    ['_gid', m.consent_cookie_gid(), m.consent_expiry_hours({ hours: 24 })],
    ['_gat', m.consent_cookie_gat(), m.consent_expiry_minute()],
  ];
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{m.privacy_cookies_caption()}</caption>
        <thead>
          <tr className="border-b border-slate-300">
            <th scope="col" className="py-2 pr-4 font-semibold">
              {m.consent_cookie_name()}
            </th>
            <th scope="col" className="py-2 pr-4 font-semibold">
              {m.consent_cookie_purpose()}
            </th>
            <th scope="col" className="py-2 font-semibold">
              {m.consent_cookie_expiry()}
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([name, purpose, expiry]) => (
            <tr key={name} className="border-b border-slate-200 align-top">
              <td className="py-2 pr-4 font-mono text-xs">{name}</td>
              <td className="py-2 pr-4">{purpose}</td>
              <td className="py-2">{expiry}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const sections = (): InfoSection[] => [
  { id: 'who', heading: m.privacy_who_heading(), body: [m.privacy_who_text()] },
  {
    id: 'data',
    heading: m.privacy_data_heading(),
    body: [
      m.privacy_data_text(),
      <List
        key="data"
        items={[
          m.privacy_data_account(),
          m.privacy_data_security(),
          m.privacy_data_learning(),
          m.privacy_data_ai(),
          m.privacy_data_billing(),
          m.privacy_data_technical(),
        ]}
      />,
    ],
  },
  { id: 'purposes', heading: m.privacy_purposes_heading(), body: [m.privacy_purposes_text()] },
  {
    id: 'processors',
    heading: m.privacy_processors_heading(),
    body: [
      m.privacy_processors_text(),
      <List
        key="processors"
        items={[
          m.privacy_processor_email(),
          m.privacy_processor_cache(),
          m.privacy_processor_ai(),
          m.privacy_processor_payments(),
          m.privacy_processor_social(),
          m.privacy_processor_analytics(),
        ]}
      />,
    ],
  },
  {
    id: 'cookies',
    heading: m.privacy_cookies_heading(),
    body: [m.privacy_cookies_text(), <CookieTable key="cookies" />, m.privacy_cookies_storage()],
  },
  { id: 'retention', heading: m.privacy_retention_heading(), body: [m.privacy_retention_text()] },
  { id: 'rights', heading: m.privacy_rights_heading(), body: [m.privacy_rights_text()] },
  { id: 'changes', heading: m.privacy_changes_heading(), body: [m.privacy_changes_text()] },
  {
    id: 'contact',
    heading: m.privacy_contact_heading(),
    body: [<SupportContact key="contact" />],
  },
];

export function PrivacyPage() {
  return (
    <InfoPage
      title={m.privacy_title()}
      description={m.meta_privacy_description()}
      lead={m.privacy_lead()}
      updated={lastUpdated()}
      sections={sections()}
    />
  );
}
