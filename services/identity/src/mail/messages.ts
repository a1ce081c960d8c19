// Every mail identity sends, in English and Brazilian Portuguese: plain words, the link or code in the
// text itself (HTML is the same text, with the link clickable). And the one text message (SMS), a code: short,
// ending in the line a phone's browser reads to fill the code in for the site (WebOTP: `@host #code`).
import {
  EMAIL_LINK_EXPIRES_IN_SECONDS,
  MAGIC_LINK_EXPIRES_IN_SECONDS,
  OTP_EXPIRES_IN_SECONDS,
} from '@engram/contracts/auth';
import type { Locale } from './locale.js';

export interface MailContent {
  subject: string;
  text: string;
}

export type OtpPurpose = 'sign-in' | 'email-verification' | 'forget-password' | 'change-email';

/** A deck assigned to a member: who assigned it where, its goal and when it is due (already formatted). */
export interface AssignmentNotice {
  url: string;
  assigner: string;
  organization: string;
  deck: string;
  /** A number of cards to learn, or a retention as a fraction (0.9). */
  target: { kind: 'cards_learned' | 'retention'; value: number };
  due: string;
}

/** An invitation's role: its name, and the label of a custom role (null for a built-in one). */
export interface InvitedRole {
  name: string;
  label: string | null;
}

const EN_ROLES: Record<string, string> = {
  owner: 'as an owner',
  admin: 'as an admin',
  member: 'as a member',
  guest: 'as a guest',
};
const PT_ROLES: Record<string, string> = {
  owner: 'como proprietário',
  admin: 'como administrador',
  member: 'como membro',
  guest: 'como convidado',
};

/** "as a member", or "with the role “Coach”" for a custom role (its label, else its name). */
const enRole = ({ name, label }: InvitedRole) => EN_ROLES[name] ?? `with the role “${label ?? name}”`;
const ptRole = ({ name, label }: InvitedRole) => PT_ROLES[name] ?? `com o papel “${label ?? name}”`;

const percent = (locale: string, value: number) =>
  new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(value);

const minutes = (seconds: number) => Math.round(seconds / 60);

const en = {
  verifyEmail: (url: string): MailContent => ({
    subject: 'Verify your email for Engram',
    text: `Welcome to Engram!\n\nOpen this link to verify your email address and sign in:\n${url}\n\nThe link works for ${minutes(EMAIL_LINK_EXPIRES_IN_SECONDS)} minutes. If you did not sign up, ignore this email.`,
  }),
  confirmEmailChange: (url: string, newEmail: string): MailContent => ({
    subject: 'Confirm your new email for Engram',
    text: `Someone asked to change the email of your Engram account to ${newEmail}.\n\nIf it was you, open this link to confirm; we will then send a verification link to the new address:\n${url}\n\nThe link works for ${minutes(EMAIL_LINK_EXPIRES_IN_SECONDS)} minutes. If it was not you, ignore this email and your address stays as it is.`,
  }),
  resetPassword: (url: string): MailContent => ({
    subject: 'Reset your Engram password',
    text: `Open this link to choose a new password for Engram:\n${url}\n\nThe link works for ${minutes(EMAIL_LINK_EXPIRES_IN_SECONDS)} minutes, once. If you did not ask for it, ignore this email; your password stays as it is.`,
  }),
  magicLink: (url: string): MailContent => ({
    subject: 'Your Engram sign-in link',
    text: `Open this link to sign in to Engram:\n${url}\n\nThe link works for ${minutes(MAGIC_LINK_EXPIRES_IN_SECONDS)} minutes, once. If you did not ask for it, ignore this email.`,
  }),
  otp: (otp: string, purpose: OtpPurpose): MailContent => {
    const what = {
      'sign-in': 'sign in to Engram',
      'email-verification': 'verify your email for Engram',
      'forget-password': 'reset your Engram password',
      'change-email': 'change your email for Engram',
    }[purpose];
    return {
      subject: `Your Engram code: ${otp}`,
      text: `Your code to ${what} is:\n\n${otp}\n\nIt works for ${minutes(OTP_EXPIRES_IN_SECONDS)} minutes. If you did not ask for it, ignore this email.`,
    };
  },
  twoFactorCode: (otp: string): MailContent => ({
    subject: `Your Engram verification code: ${otp}`,
    text: `Your two-factor verification code for Engram is:\n\n${otp}\n\nIf you are not signing in right now, change your password.`,
  }),
  smsCode: (code: string, host: string): string =>
    `Your Engram code is ${code}. It works for ${minutes(OTP_EXPIRES_IN_SECONDS)} minutes. Never share it.\n\n@${host} #${code}`,
  smsTwoFactor: (): string =>
    'Someone asked to sign in to your Engram account with a code sent to this number. Your account has two-factor authentication, so a code by text message cannot sign it in: sign in with your password.',
  passwordGuessing: (url: string): MailContent => ({
    subject: 'Someone is trying to guess your Engram password',
    text: `Someone has entered many wrong passwords for your Engram account in a short time. To protect it, signing in with a password now waits a little longer after each wrong one; you can always sign in with a link or code sent to this address.\n\nIf it was not you, choose a new, strong password here:\n${url}\n\nIf it was you, wait a moment and try again.`,
  }),
  invitation: (url: string, inviter: string, organization: string, role: InvitedRole): MailContent => ({
    subject: `${inviter} invited you to ${organization} on Engram`,
    text: `${inviter} invited you to join ${organization} on Engram ${enRole(role)}.\n\nOpen this link to accept or decline (it expires in 48 hours):\n${url}\n\nIf you did not expect this invitation, you can ignore this email.`,
  }),
  assignment: ({ url, assigner, organization, deck, target, due }: AssignmentNotice): MailContent => {
    const goal =
      target.kind === 'retention'
        ? `reach ${percent('en', target.value)} retention`
        : `learn ${target.value} ${target.value === 1 ? 'card' : 'cards'}`;
    return {
      subject: `New assignment in ${organization}: ${deck}`,
      text: `${assigner} assigned you the deck ${deck} in ${organization} on Engram.\n\nYour goal: ${goal} by ${due}.\n\nOpen your dashboard to subscribe and start learning:\n${url}\n\nYou get this email because you are a member of ${organization}.`,
    };
  },
};

const ptBR: typeof en = {
  verifyEmail: (url) => ({
    subject: 'Verifique seu e-mail no Engram',
    text: `Boas-vindas ao Engram!\n\nAbra este link para verificar seu endereço de e-mail e entrar:\n${url}\n\nO link vale por ${minutes(EMAIL_LINK_EXPIRES_IN_SECONDS)} minutos. Se você não se cadastrou, ignore este e-mail.`,
  }),
  confirmEmailChange: (url, newEmail) => ({
    subject: 'Confirme seu novo e-mail no Engram',
    text: `Alguém pediu para mudar o e-mail da sua conta do Engram para ${newEmail}.\n\nSe foi você, abra este link para confirmar; depois enviaremos um link de verificação ao novo endereço:\n${url}\n\nO link vale por ${minutes(EMAIL_LINK_EXPIRES_IN_SECONDS)} minutos. Se não foi você, ignore este e-mail e seu endereço continua o mesmo.`,
  }),
  resetPassword: (url) => ({
    subject: 'Redefina sua senha do Engram',
    text: `Abra este link para escolher uma nova senha no Engram:\n${url}\n\nO link vale por ${minutes(EMAIL_LINK_EXPIRES_IN_SECONDS)} minutos, uma única vez. Se você não pediu, ignore este e-mail; sua senha continua a mesma.`,
  }),
  magicLink: (url) => ({
    subject: 'Seu link de acesso ao Engram',
    text: `Abra este link para entrar no Engram:\n${url}\n\nO link vale por ${minutes(MAGIC_LINK_EXPIRES_IN_SECONDS)} minutos, uma única vez. Se você não pediu, ignore este e-mail.`,
  }),
  otp: (otp, purpose) => {
    const what = {
      'sign-in': 'entrar no Engram',
      'email-verification': 'verificar seu e-mail no Engram',
      'forget-password': 'redefinir sua senha do Engram',
      'change-email': 'mudar seu e-mail no Engram',
    }[purpose];
    return {
      subject: `Seu código do Engram: ${otp}`,
      text: `Seu código para ${what} é:\n\n${otp}\n\nEle vale por ${minutes(OTP_EXPIRES_IN_SECONDS)} minutos. Se você não pediu, ignore este e-mail.`,
    };
  },
  twoFactorCode: (otp) => ({
    subject: `Seu código de verificação do Engram: ${otp}`,
    text: `Seu código de verificação em duas etapas do Engram é:\n\n${otp}\n\nSe você não está entrando agora, mude sua senha.`,
  }),
  smsCode: (code, host) =>
    `Seu código do Engram é ${code}. Ele vale por ${minutes(OTP_EXPIRES_IN_SECONDS)} minutos. Não o compartilhe.\n\n@${host} #${code}`,
  smsTwoFactor: () =>
    'Alguém pediu para entrar na sua conta do Engram com um código enviado a este número. Sua conta tem verificação em duas etapas, então um código por mensagem de texto não a abre: entre com sua senha.',
  passwordGuessing: (url) => ({
    subject: 'Alguém está tentando adivinhar sua senha do Engram',
    text: `Alguém digitou muitas senhas erradas para sua conta do Engram em pouco tempo. Para protegê-la, entrar com senha agora espera um pouco mais a cada senha errada; você sempre pode entrar com um link ou código enviado a este endereço.\n\nSe não foi você, escolha uma senha nova e forte aqui:\n${url}\n\nSe foi você, espere um momento e tente de novo.`,
  }),
  invitation: (url, inviter, organization, role) => ({
    subject: `${inviter} convidou você para ${organization} no Engram`,
    text: `${inviter} convidou você para participar de ${organization} no Engram ${ptRole(role)}.\n\nAbra este link para aceitar ou recusar (ele expira em 48 horas):\n${url}\n\nSe você não esperava este convite, pode ignorar este e-mail.`,
  }),
  assignment: ({ url, assigner, organization, deck, target, due }) => {
    const goal =
      target.kind === 'retention'
        ? `alcançar ${percent('pt-BR', target.value)} de retenção`
        : `aprender ${target.value} ${target.value === 1 ? 'cartão' : 'cartões'}`;
    return {
      subject: `Nova tarefa em ${organization}: ${deck}`,
      text: `${assigner} atribuiu a você o baralho ${deck} em ${organization} no Engram.\n\nSua meta: ${goal} até ${due}.\n\nAbra seu painel para se inscrever e começar a aprender:\n${url}\n\nVocê recebe este e-mail porque participa de ${organization}.`,
    };
  },
};

export const MESSAGES: Record<Locale, typeof en> = { en, 'pt-BR': ptBR };

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);

/** The text as HTML: paragraphs and line breaks kept, links clickable, nothing else. */
export function htmlOf(text: string): string {
  const paragraphs = text.split('\n\n').map((paragraph) =>
    escapeHtml(paragraph)
      .replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`)
      .replaceAll('\n', '<br>'),
  );
  return `<!doctype html><html><body>${paragraphs.map((p) => `<p>${p}</p>`).join('')}</body></html>`;
}
