// How to reach support: the configured address (SUPPORT_EMAIL) as a mail
// link, or a sentence saying how to write without one. The help, terms and privacy pages and /suspended say it.
import { m } from '../lib/i18n';
import { publicConfig } from '../lib/public-config';

export function SupportContact({ email = publicConfig().supportEmail }: { email?: string | undefined }) {
  if (!email) return <>{m.info_contact_in_app()}</>;
  return (
    <>
      {m.info_contact_email()}{' '}
      <a href={`mailto:${email}`} className="font-medium text-brand-700 underline underline-offset-4">
        {email}
      </a>
    </>
  );
}
