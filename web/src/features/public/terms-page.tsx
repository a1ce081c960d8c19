// "/terms": the terms of using Engram, its plans and the content people keep in it.

import { SupportContact } from '../../components/support-contact';
import { m } from '../../lib/i18n';
import { InfoPage, type InfoSection } from './info-page';
import { lastUpdated } from './updated';

const sections = (): InfoSection[] => [
  { id: 'agreement', heading: m.terms_agreement_heading(), body: [m.terms_agreement_text()] },
  { id: 'service', heading: m.terms_service_heading(), body: [m.terms_service_text()] },
  { id: 'account', heading: m.terms_account_heading(), body: [m.terms_account_text(), m.terms_account_text2()] },
  { id: 'content', heading: m.terms_content_heading(), body: [m.terms_content_text(), m.terms_content_text2()] },
  { id: 'ai', heading: m.terms_ai_heading(), body: [m.terms_ai_text()] },
  { id: 'use', heading: m.terms_use_heading(), body: [m.terms_use_text()] },
  { id: 'plans', heading: m.terms_plans_heading(), body: [m.terms_plans_text(), m.terms_plans_text2()] },
  { id: 'ending', heading: m.terms_ending_heading(), body: [m.terms_ending_text()] },
  { id: 'liability', heading: m.terms_liability_heading(), body: [m.terms_liability_text()] },
  { id: 'changes', heading: m.terms_changes_heading(), body: [m.terms_changes_text()] },
  {
    id: 'contact',
    heading: m.terms_contact_heading(),
    body: [<SupportContact key="contact" />],
  },
];

export function TermsPage() {
  return (
    <InfoPage
      title={m.terms_title()}
      description={m.meta_terms_description()}
      lead={m.terms_lead()}
      updated={lastUpdated()}
      sections={sections()}
    />
  );
}
