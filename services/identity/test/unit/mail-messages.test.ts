// The mails' language and texts: Accept-Language picks English or Brazilian Portuguese, and every mail
// in both carries its link or code in the text, with the HTML twin saying the same.
import { describe, expect, it } from 'vitest';
import { localeOf } from '../../src/mail/locale.js';
import { htmlOf, MESSAGES } from '../../src/mail/messages.js';

describe('the language of a mail', () => {
  it.each([
    [undefined, 'en'],
    ['', 'en'],
    ['pt-BR', 'pt-BR'],
    ['pt', 'pt-BR'],
    ['pt-PT,pt;q=0.9', 'pt-BR'],
    ['en-US,en;q=0.9,pt-BR;q=0.8', 'en'],
    ['de-DE,pt-BR;q=0.7,en;q=0.6', 'pt-BR'],
    ['en;q=0.5, pt-BR;q=0.9', 'pt-BR'],
    ['pt-BR;q=0, fr', 'en'],
    ['fr-FR,de', 'en'],
  ] as const)('is %s → %s', (header, locale) => {
    expect(localeOf(header)).toBe(locale);
  });
});

describe('the texts', () => {
  const url = 'https://engram.example/api/auth/verify-email?token=abc&callbackURL=%2Fdashboard';
  const otp = '042917';

  it.each(Object.keys(MESSAGES) as (keyof typeof MESSAGES)[])(
    'in %s carry the link or the code in their text',
    (locale) => {
      const m = MESSAGES[locale];
      for (const mail of [
        m.verifyEmail(url),
        m.confirmEmailChange(url, 'new@example.com'),
        m.resetPassword(url),
        m.magicLink(url),
        m.passwordGuessing(url),
      ]) {
        expect(mail.text).toContain(url);
        expect(mail.subject).not.toBe('');
      }
      for (const purpose of ['sign-in', 'email-verification', 'forget-password', 'change-email'] as const) {
        expect(m.otp(otp, purpose).text).toMatch(new RegExp(`^${otp}$`, 'm'));
      }
      expect(m.twoFactorCode(otp).text).toMatch(new RegExp(`^${otp}$`, 'm'));
      expect(m.confirmEmailChange(url, 'new@example.com').text).toContain('new@example.com');
    },
  );

  it("name an assignment's deck, organization, goal and due date, with the dashboard link", () => {
    const notice = {
      url: 'https://engram.example/dashboard',
      assigner: 'Ada',
      organization: 'Cell Academy',
      deck: 'Cell biology',
      due: '1 December 2026',
    };
    const cards = MESSAGES.en.assignment({ ...notice, target: { kind: 'cards_learned', value: 3 } });
    expect(cards.subject).toBe('New assignment in Cell Academy: Cell biology');
    expect(cards.text).toContain('Ada assigned you the deck Cell biology in Cell Academy on Engram.');
    expect(cards.text).toContain('Your goal: learn 3 cards by 1 December 2026.');
    expect(cards.text).toContain(notice.url);
    expect(MESSAGES.en.assignment({ ...notice, target: { kind: 'cards_learned', value: 1 } }).text).toContain(
      'learn 1 card by',
    );
    const retention = MESSAGES['pt-BR'].assignment({ ...notice, target: { kind: 'retention', value: 0.85 } });
    expect(retention.subject).toBe('Nova tarefa em Cell Academy: Cell biology');
    expect(retention.text).toContain('Sua meta: alcançar 85% de retenção até 1 December 2026.');
  });

  it('say the same in HTML, escaped, with the link clickable', () => {
    expect(htmlOf(`Open <this>:\n${url}\n\nBye & thanks`)).toBe(
      '<!doctype html><html><body>' +
        `<p>Open &lt;this&gt;:<br><a href="${url.replace('&', '&amp;')}">${url.replace('&', '&amp;')}</a></p>` +
        '<p>Bye &amp; thanks</p></body></html>',
    );
  });
});
