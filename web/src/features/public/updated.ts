// When the terms and the privacy notice last changed, in the reader's language.
import { getLocale, m } from '../../lib/i18n';

export const LEGAL_TEXTS_UPDATED = new Date(Date.UTC(2026, 10, 23));

export const lastUpdated = (): string =>
  m.info_updated({
    date: new Intl.DateTimeFormat(getLocale(), { dateStyle: 'long', timeZone: 'UTC' }).format(LEGAL_TEXTS_UPDATED),
  });
