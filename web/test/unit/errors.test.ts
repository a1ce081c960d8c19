// An error toast reads the catalogue's text in the user's language, choosing it in the order of
// docs/product.md#error-catalogue.

import { authLocalization as authScreenTexts } from '@daveyplate/better-auth-ui';
import { AI_REASONS } from '@engram/contracts/ai';
import { SMS_NOT_SENT } from '@engram/contracts/auth-features';
import { EXPORT_REASONS, tooManyExportsMessage } from '@engram/contracts/exports';
import { IMPORT_REASONS, tooManyImportsMessage } from '@engram/contracts/imports';
import { CARD_ARCHIVED_MESSAGE, REVIEW_REASONS } from '@engram/contracts/learning';
import { MEDIA_REASONS } from '@engram/contracts/media';
import { CUSTOM_ROLE_ERROR_CODES, ORGANIZATION_ERROR_CODES } from '@engram/contracts/organizations';
import { PRESET_REASONS } from '@engram/contracts/scheduling';
import { SHARED_DECK_REASONS } from '@engram/contracts/shared-decks';
import { TRPCClientError } from '@trpc/client';
import { BASE_ERROR_CODES } from 'better-auth';
import {
  admin,
  captcha,
  emailOTP,
  haveIBeenPwned,
  organization,
  phoneNumber,
  twoFactor,
  username,
} from 'better-auth/plugins';
import { afterEach, describe, expect, it } from 'vitest';
import { AUTH_ERRORS } from '../../src/lib/error-catalogue.ts';
import { isBannedUserError } from '../../src/lib/error-codes.ts';
import { ERROR_CATALOGUE, resolveErrorMessage } from '../../src/lib/errors.ts';
import { setLocale } from '../../src/lib/i18n.ts';

afterEach(() => setLocale('en'));

/** A tRPC error as the client builds it from the gateway's answer. */
function trpcError(message: string, data: Record<string, unknown>) {
  return TRPCClientError.from({ error: { code: -32600, message, data } });
}

describe('the order of the error catalogue', () => {
  it('shows the catalogue text for a string key, in either language', () => {
    expect(resolveErrorMessage('USER_ALREADY_EXISTS')).toBe('User already exists');
    setLocale('pt-BR');
    expect(resolveErrorMessage('USER_ALREADY_EXISTS')).toBe('O usuário já existe');
  });

  it('falls back to REQUEST_FAILED for a string that is not a key', () => {
    expect(resolveErrorMessage('something odd')).toBe('Request failed');
    setLocale('pt-BR');
    expect(resolveErrorMessage('something odd')).toBe('Falha na solicitação');
  });

  it("prefers a nested error's localized code text over its message", () => {
    const result = { data: null, error: { code: 'EMAIL_NOT_VERIFIED', message: 'Email not verified', status: 403 } };
    expect(resolveErrorMessage(result)).toBe('Email not verified. Please check your inbox.');
    setLocale('pt-BR');
    expect(resolveErrorMessage(result)).toBe('E-mail não verificado. Confira sua caixa de entrada.');
  });

  it("then takes a nested error's message, then its code, then its status text", () => {
    expect(resolveErrorMessage({ error: { code: 'SOMETHING_NEW', message: 'A new problem' } })).toBe('A new problem');
    expect(resolveErrorMessage({ error: { code: 'SOMETHING_NEW' } })).toBe('SOMETHING_NEW');
    expect(resolveErrorMessage({ error: { status: 502, statusText: 'Bad Gateway' } })).toBe('Bad Gateway');
  });

  it('then REQUEST_FAILED for a nested error with nothing to show', () => {
    expect(resolveErrorMessage({ error: { status: 500, message: '  ' } })).toBe('Request failed');
    setLocale('pt-BR');
    expect(resolveErrorMessage({ error: {} })).toBe('Falha na solicitação');
  });

  it("gives better-auth's error handed over without its result the localized text of its code", () => {
    const error = { code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password', status: 401 };
    setLocale('pt-BR');
    expect(resolveErrorMessage(error)).toBe('E-mail ou senha inválidos');
  });

  it("shows any other error's own message, else REQUEST_FAILED", () => {
    expect(resolveErrorMessage(new Error('The deck is full'))).toBe('The deck is full');
    expect(resolveErrorMessage(new Error(''))).toBe('Request failed');
    expect(resolveErrorMessage(undefined)).toBe('Request failed');
    expect(resolveErrorMessage(42)).toBe('Request failed');
    setLocale('pt-BR');
    expect(resolveErrorMessage(null)).toBe('Falha na solicitação');
  });

  it('ends with "Request failed" when the catalogue has no REQUEST_FAILED', () => {
    expect(resolveErrorMessage({ error: {} }, {})).toBe('Request failed');
    expect(resolveErrorMessage('USER_NOT_FOUND', {})).toBe('Request failed');
    expect(resolveErrorMessage({}, {})).toBe('Request failed');
  });

  it('never treats inherited object keys as catalogue keys', () => {
    expect(resolveErrorMessage('constructor')).toBe('Request failed');
    expect(resolveErrorMessage({ error: { code: 'toString' } })).toBe('toString');
  });
});

describe("the gateway's tRPC errors", () => {
  it("show the gateway's words for a validation error", () => {
    const error = trpcError('Front is required.', {
      code: 'BAD_REQUEST',
      httpStatus: 400,
      path: 'cards.create',
      issues: [{ path: ['front'], message: 'Front is required.' }],
    });
    expect(resolveErrorMessage(error)).toBe('Front is required.');
  });

  it('show the catalogue text for generic codes instead of the server message, in either language', () => {
    const internal = trpcError('Something went wrong!', { code: 'INTERNAL_SERVER_ERROR', httpStatus: 500 });
    const signedOut = trpcError('Please sign in.', { code: 'UNAUTHORIZED', httpStatus: 401 });
    const unavailable = trpcError('Service unavailable', { code: 'SERVICE_UNAVAILABLE', httpStatus: 503 });
    // The gateway's rate limits, a batch's calls counted one by one.
    const limited = trpcError('Too many requests. Please try again in 42 seconds.', {
      code: 'TOO_MANY_REQUESTS',
      httpStatus: 429,
    });
    expect(resolveErrorMessage(internal)).toBe('Something went wrong!');
    expect(resolveErrorMessage(signedOut)).toBe('Your session has ended. Please sign in again.');
    expect(resolveErrorMessage(limited)).toBe('Too many requests. Please try again later.');
    setLocale('pt-BR');
    expect(resolveErrorMessage(internal)).toBe('Algo deu errado!');
    expect(resolveErrorMessage(signedOut)).toBe('Sua sessão terminou. Entre novamente.');
    expect(resolveErrorMessage(unavailable)).toBe(
      'O serviço está indisponível no momento. Tente de novo em instantes.',
    );
  });

  it('show the catalogue text of a domain reason the catalogue knows', () => {
    const banned = trpcError('You have been banned from this application', {
      code: 'FORBIDDEN',
      httpStatus: 403,
      reason: 'BANNED_USER',
    });
    setLocale('pt-BR');
    expect(resolveErrorMessage(banned)).toBe('Você foi banido deste aplicativo');
  });

  it("word a card file's refusal in the learner's language: a video sent as a sound, bytes not what they say", () => {
    const video = trpcError('This file is a video, and a card keeps only sounds and images.', {
      code: 'BAD_REQUEST',
      httpStatus: 400,
      reason: 'MEDIA_IS_VIDEO',
    });
    const notWhatItSays = trpcError('The file is not an image or a sound a card can hold.', {
      code: 'BAD_REQUEST',
      httpStatus: 400,
      reason: 'MEDIA_NOT_WHAT_IT_SAYS',
    });
    expect(resolveErrorMessage(video)).toBe(
      'This file is a video, and a card keeps only sounds and images. Save its sound as an audio file (such as MP3 or M4A) and add that.',
    );
    setLocale('pt-BR');
    expect(resolveErrorMessage(video)).toBe(
      'Este arquivo é um vídeo, e um cartão guarda só sons e imagens. Salve o som dele como um arquivo de áudio (como MP3 ou M4A) e adicione esse.',
    );
    expect(resolveErrorMessage(notWhatItSays)).toBe(
      'O arquivo não é uma imagem nem um som que um cartão possa guardar (PNG, JPEG, WebP, GIF, SVG, MP3, OGG, M4A, WAV, WebM, FLAC).',
    );
  });

  it('show a review of an archived card refused in the user’s language', () => {
    const archived = trpcError(CARD_ARCHIVED_MESSAGE, {
      code: 'PRECONDITION_FAILED',
      httpStatus: 412,
      reason: REVIEW_REASONS.cardArchived,
    });
    expect(resolveErrorMessage(archived)).toBe(CARD_ARCHIVED_MESSAGE);
    setLocale('pt-BR');
    expect(resolveErrorMessage(archived)).toBe('Este cartão está arquivado. Desarquive-o para revisá-lo de novo.');
  });

  it("tell a ban apart, from the gateway's reason or identity's code, alone or in better-auth's result", () => {
    const fromGateway = trpcError('You have been banned from this application', {
      code: 'FORBIDDEN',
      httpStatus: 403,
      reason: 'BANNED_USER',
    });
    const fromIdentity = { code: 'BANNED_USER', message: 'You have been banned from this application', status: 403 };
    expect(isBannedUserError(fromGateway)).toBe(true);
    expect(isBannedUserError(fromIdentity)).toBe(true);
    expect(isBannedUserError({ data: null, error: fromIdentity })).toBe(true);
    const otherRefusal = trpcError('Not allowed', { code: 'FORBIDDEN', httpStatus: 403 });
    for (const error of [otherRefusal, { code: 'USER_NOT_FOUND' }, 'BANNED_USER', null, undefined]) {
      expect(isBannedUserError(error)).toBe(false);
    }
  });

  it('say the server could not be reached when the request never got an answer', () => {
    const offline = TRPCClientError.from(new TypeError('Failed to fetch'));
    expect(resolveErrorMessage(offline)).toBe('Could not reach the server. Check your connection and try again.');
    expect(resolveErrorMessage(new TypeError('Load failed'))).toBe(
      'Could not reach the server. Check your connection and try again.',
    );
  });
});

describe('the catalogue', () => {
  const betterAuthCodes = new Set<string>([
    ...Object.keys(BASE_ERROR_CODES),
    ...[
      admin(),
      username(),
      emailOTP({ sendVerificationOTP: async () => {} }),
      phoneNumber({ sendOTP: async () => {} }),
      twoFactor(),
      organization(),
      captcha({ provider: 'cloudflare-turnstile', secretKey: 'unused' }),
      haveIBeenPwned(),
    ].flatMap((plugin) => Object.keys(plugin.$ERROR_CODES ?? {})),
  ]);
  /** Codes of plugins Engram does not install (passkey, API key, Stripe) and the screens' own messages. */
  const notInBetterAuthCore = new Set([
    ...Object.keys(AUTH_ERRORS.passkey),
    ...Object.keys(AUTH_ERRORS.apiKey),
    ...Object.keys(AUTH_ERRORS.subscription),
    'INVITATION_EXPIRED',
    'BACKUP_CODE_REQUIRED',
    // The captcha plugin's codes are thrown by its middleware, not listed in $ERROR_CODES.
    'MISSING_RESPONSE',
    'SERVICE_UNAVAILABLE',
    'MISSING_SECRET_KEY',
  ]);
  /** Codes better-auth-ui has texts for (its screens show them), some of plugins of other versions. */
  const authScreenCodes = new Set(Object.keys(authScreenTexts));

  /** Engram's own domain reasons (tRPC error data), for refusals whose text the user reads in their language. */
  const domainReasons = new Set<string>([
    ...Object.values(AI_REASONS),
    ...Object.values(SHARED_DECK_REASONS),
    ...Object.values(EXPORT_REASONS),
    ...Object.values(IMPORT_REASONS),
    MEDIA_REASONS.importUploadsWaiting,
    ...Object.values(PRESET_REASONS),
    ...Object.values(MEDIA_REASONS),
    ...Object.values(REVIEW_REASONS),
    // Identity's own refusals of a name, an organization's name or slug, or a custom role (profile-rules.ts,
    // organizations.ts).
    'NAME_TOO_LONG',
    ...Object.values(ORGANIZATION_ERROR_CODES),
    ...Object.values(CUSTOM_ROLE_ERROR_CODES),
    // A code that could not be texted (phone-numbers.ts).
    SMS_NOT_SENT,
  ]);

  it('is keyed by the error codes of better-auth and of its screens, and by Engram’s domain reasons', () => {
    const unknown = Object.keys(ERROR_CATALOGUE).filter(
      (code) =>
        code !== 'REQUEST_FAILED' &&
        !domainReasons.has(code) &&
        !notInBetterAuthCore.has(code) &&
        !betterAuthCodes.has(code) &&
        !authScreenCodes.has(code),
    );
    expect(unknown).toEqual([]);
  });

  it('shows generation refusals in the user’s language, by their reason', () => {
    const limit = {
      message: 'Usage limit reached: only 3 generated cards are left.',
      data: { code: 'PRECONDITION_FAILED', reason: 'USAGE_LIMIT_REACHED' },
    };
    expect(resolveErrorMessage(limit)).toBe(
      'Not enough generated cards are left in this billing period: ask for fewer cards, or wait until it renews.',
    );
    const bomb = {
      message: 'The PDF unpacks to more than 100 MB of data, so it cannot be read safely.',
      data: { code: 'BAD_REQUEST', reason: 'FILE_TOO_COMPLEX' },
    };
    expect(resolveErrorMessage(bomb)).toBe(
      'The file cannot be read safely: it unpacks to far more than its size, or needs too much memory or time. Try a smaller or simpler file, or paste its text.',
    );
    setLocale('pt-BR');
    expect(resolveErrorMessage({ ...limit, data: { ...limit.data, reason: 'UPLOAD_QUOTA_REACHED' } })).toBe(
      'Você atingiu o limite de envios: espere seus arquivos serem lidos ou os envios mais antigos expirarem, ou cole suas anotações.',
    );
    setLocale('en');
    for (const reason of Object.values(AI_REASONS).filter((r) => r !== AI_REASONS.notesInvalid)) {
      expect(Object.hasOwn(ERROR_CATALOGUE, reason), reason).toBe(true);
    }
  });

  it('shows the refusals of too many imports, exports or files waiting to be imported in the user’s language', () => {
    const imports = { message: tooManyImportsMessage(), data: { code: 'PRECONDITION_FAILED', reason: 'IMPORTS_BUSY' } };
    const exports = { message: tooManyExportsMessage(), data: { code: 'PRECONDITION_FAILED', reason: 'EXPORTS_BUSY' } };
    const waiting = {
      message: 'You have 2 files waiting to be imported, the most your plan lets wait at once.',
      data: { code: 'PRECONDITION_FAILED', reason: 'IMPORT_UPLOADS_WAITING' },
    };
    // In English, the service's own words where they name no figure of the learner's.
    expect(resolveErrorMessage(imports)).toBe(tooManyImportsMessage());
    expect(resolveErrorMessage(exports)).toBe(tooManyExportsMessage());
    expect(resolveErrorMessage(waiting)).toBe(
      'Your files waiting to be imported already take all the room your plan gives them. Import them, or wait ' +
        'until they expire 3 hours after they were sent, then send this one.',
    );
    setLocale('pt-BR');
    expect(resolveErrorMessage(imports)).toBe(
      'Você já tem 2 importações esperando ou em andamento. Espere uma delas terminar e então comece esta.',
    );
    expect(resolveErrorMessage(exports)).toBe(
      'Você já tem 2 exportações esperando ou sendo feitas. Espere uma delas ficar pronta e então comece esta.',
    );
    expect(resolveErrorMessage(waiting)).toContain('3 horas depois de enviados');
  });

  it('covers every section of the catalogue', () => {
    expect(Object.keys(AUTH_ERRORS).sort()).toEqual(
      [
        'admin',
        'apiKey',
        'captcha',
        'compromisedPassword',
        'emailCode',
        'invitation',
        'organization',
        'passkey',
        'phone',
        'subscription',
        'team',
        'twoFactor',
        'user',
        'username',
      ].sort(),
    );
    for (const code of ['USER_ALREADY_EXISTS', 'YOU_CANNOT_BAN_YOURSELF', 'BANNED_USER', 'PASSWORD_COMPROMISED']) {
      expect(ERROR_CATALOGUE).toHaveProperty(code);
    }
  });

  it("gives the product's own wording where it has one", () => {
    expect(resolveErrorMessage('SESSION_EXPIRED')).toBe('Re-authenticate');
    expect(resolveErrorMessage('FAILED_TO_UNLINK_LAST_ACCOUNT')).toBe("You can't unlink your last account");
    expect(resolveErrorMessage('BANNED_USER')).toBe('You have been banned from this application');
  });

  it('has a Portuguese text for every error, different from the English one', () => {
    const english = Object.fromEntries(Object.entries(ERROR_CATALOGUE).map(([code, text]) => [code, text()]));
    setLocale('pt-BR');
    const untranslated = Object.entries(ERROR_CATALOGUE).filter(([code, text]) => text() === english[code]);
    expect(untranslated.map(([code]) => code)).toEqual([]);
  });
});
