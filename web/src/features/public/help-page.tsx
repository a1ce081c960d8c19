// "/help": how Engram works, from the first card to plans and the account, and where to ask.

import { SupportContact } from '../../components/support-contact';
import { m } from '../../lib/i18n';
import { InfoPage, type InfoSection } from './info-page';

const sections = (): InfoSection[] => [
  { id: 'start', heading: m.help_start_heading(), body: [m.help_start_text(), m.help_start_text2()] },
  { id: 'cards', heading: m.help_cards_heading(), body: [m.help_cards_text(), m.help_cards_text2()] },
  { id: 'ai', heading: m.help_ai_heading(), body: [m.help_ai_text(), m.help_ai_text2()] },
  { id: 'practice', heading: m.help_practice_heading(), body: [m.help_practice_text(), m.help_practice_keys()] },
  {
    id: 'scheduling',
    heading: m.help_scheduling_heading(),
    body: [m.help_scheduling_text(), m.help_scheduling_text2()],
  },
  { id: 'progress', heading: m.help_progress_heading(), body: [m.help_progress_text()] },
  { id: 'plans', heading: m.help_plans_heading(), body: [m.help_plans_text(), m.help_plans_text2()] },
  { id: 'account', heading: m.help_account_heading(), body: [m.help_account_text(), m.help_account_text2()] },
  { id: 'preferences', heading: m.help_preferences_heading(), body: [m.help_preferences_text()] },
  {
    id: 'contact',
    heading: m.help_contact_heading(),
    body: [m.help_contact_text(), <SupportContact key="contact" />],
  },
];

export function HelpPage() {
  return (
    <InfoPage
      title={m.help_title()}
      description={m.meta_help_description()}
      lead={m.help_lead()}
      sections={sections()}
    />
  );
}
