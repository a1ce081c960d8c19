// Mail: through SES with the real AWS SDK against a protocol-level fake (sent, refused, unreachable), and
// the dev mailbox in a real Redis (per recipient, newest first, capped, expiring); and which of the two a
// service gets from its configuration.
import { randomBytes } from 'node:crypto';
import { ConfigError, parseConfig, vars } from '@engram/kit/config';
import { mailSettingsOf, mailVars } from '@engram/kit/mail/config';
import { createMailer, MailDeliveryError } from '@engram/kit/mail/create-mailer';
import {
  DEV_MAILBOX_CAPACITY,
  DEV_MAILBOX_TTL_SECONDS,
  devMailbox,
  readDevMailbox,
} from '@engram/kit/mail/dev-mailbox';
import { sesMailer } from '@engram/kit/mail/ses';
import { capturedLogger } from '@engram/testkit/captured-logger';
import { testContext } from '@engram/testkit/context';
import { type SesFake, startSesFake } from '@engram/testkit/ses-fake';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const message = {
  to: 'ada@example.com',
  subject: 'Verify your email',
  text: 'Open https://engram.example/verify?token=abc to verify.',
  html: '<p>Open <a href="https://engram.example/verify?token=abc">the link</a> to verify.</p>',
};

describe('SES', () => {
  let fake: SesFake;
  const credentials = { accessKeyId: 'AKIAENGRAMTEST', secretAccessKey: 'not-a-real-secret' };
  beforeAll(async () => {
    fake = await startSesFake();
  });
  afterAll(() => fake?.stop());

  it('sends one message with SendEmail: sender, recipient, subject, text and HTML in UTF-8, signed for the region', async () => {
    const { logger } = capturedLogger('mail-test');
    const mailer = sesMailer(
      { region: 'eu-west-1', from: 'Engram <no-reply@engram.example>', endpoint: fake.url, credentials },
      logger,
    );
    await mailer.send({ ...message, subject: 'Verifique seu e-mail' });
    mailer.close();

    const request = fake.requests.at(-1);
    expect(request?.body).toEqual({
      FromEmailAddress: 'Engram <no-reply@engram.example>',
      Destination: { ToAddresses: ['ada@example.com'] },
      Content: {
        Simple: {
          Subject: { Data: 'Verifique seu e-mail', Charset: 'UTF-8' },
          Body: { Text: { Data: message.text, Charset: 'UTF-8' }, Html: { Data: message.html, Charset: 'UTF-8' } },
        },
      },
    });
    expect(request?.authorization).toMatch(/Credential=AKIAENGRAMTEST\/\d{8}\/eu-west-1\/ses\/aws4_request/);
  });

  it('reports a message SES rejects as a failed send, logs it with the recipient, and keeps sending', async () => {
    const { logger, lines } = capturedLogger('mail-test');
    const mailer = sesMailer(
      { region: 'eu-west-1', from: 'no-reply@engram.example', endpoint: fake.url, credentials },
      logger,
    );
    fake.rejectNext();

    const failure = await mailer.send(message).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(MailDeliveryError);
    expect((failure as MailDeliveryError).message).toBe('SES did not send the mail (MessageRejected)');
    expect(((failure as MailDeliveryError).cause as Error).name).toBe('MessageRejected');
    const logged = lines.find((line) => line.msg === 'SES did not send a mail');
    expect(logged).toMatchObject({ level: 'error', mail: { to: 'ada@example.com', subject: message.subject } });

    await mailer.send(message);
    expect(fake.requests.at(-1)?.messageId).toEqual(expect.any(String));
    mailer.close();
  });

  it('reports an unreachable endpoint as a failed send', async () => {
    const gone = await startSesFake();
    await gone.stop();
    const mailer = sesMailer(
      { region: 'eu-west-1', from: 'no-reply@engram.example', endpoint: gone.url, credentials },
      capturedLogger('mail-test').logger,
    );
    await expect(mailer.send(message)).rejects.toBeInstanceOf(MailDeliveryError);
    mailer.close();
  });
});

describe('the dev mailbox', () => {
  let redis: Redis;
  const prefix = () => `${testContext().subjectPrefix}${randomBytes(3).toString('hex')}:`;
  beforeAll(() => {
    redis = new Redis(testContext().redisUrl);
  });
  afterAll(() => redis?.quit());

  it('keeps every message for its recipient, newest first, whatever the case of the address', async () => {
    const keyPrefix = prefix();
    const mailbox = devMailbox(redis, keyPrefix, capturedLogger('mail-test').logger);
    await mailbox.send({ ...message, subject: 'first' });
    await mailbox.send({ ...message, to: 'Ada@Example.com', subject: 'second' });
    await mailbox.send({ ...message, to: 'grace@example.com', subject: 'for someone else' });

    const kept = await readDevMailbox(redis, keyPrefix, 'ADA@example.com');
    expect(kept.map((mail) => mail.subject)).toEqual(['second', 'first']);
    expect(kept[1]).toEqual({ ...message, subject: 'first', sentAt: expect.any(String), channel: 'mail' });
    expect(Date.parse(kept[1]?.sentAt ?? '')).toBeLessThanOrEqual(Date.parse(kept[0]?.sentAt ?? ''));
    expect(await readDevMailbox(redis, prefix(), 'ada@example.com')).toEqual([]);
  });

  it(`keeps the newest ${DEV_MAILBOX_CAPACITY} messages of a recipient, and forgets them a day after the last`, async () => {
    const keyPrefix = prefix();
    const mailbox = devMailbox(redis, keyPrefix, capturedLogger('mail-test').logger);
    for (let n = 1; n <= DEV_MAILBOX_CAPACITY + 3; n += 1) await mailbox.send({ ...message, subject: `mail ${n}` });

    const kept = await readDevMailbox(redis, keyPrefix, message.to);
    expect(kept).toHaveLength(DEV_MAILBOX_CAPACITY);
    expect(kept[0]?.subject).toBe(`mail ${DEV_MAILBOX_CAPACITY + 3}`);
    expect(kept.at(-1)?.subject).toBe('mail 4');
    const ttl = await redis.ttl(`${keyPrefix}dev-mailbox:${message.to}`);
    expect(ttl).toBeGreaterThan(DEV_MAILBOX_TTL_SECONDS - 60);
    expect(ttl).toBeLessThanOrEqual(DEV_MAILBOX_TTL_SECONDS);
  });
});

describe('choosing the mailer', () => {
  const shape = { NODE_ENV: vars.nodeEnv, ...mailVars };
  const settingsOf = (env: Record<string, string>) => mailSettingsOf('identity', parseConfig('identity', shape, env));
  const problemsOf = (env: Record<string, string>) => {
    try {
      settingsOf(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as ConfigError).problems;
    }
    throw new Error('expected a ConfigError');
  };

  it('uses the dev mailbox outside production when SES is not configured', () => {
    expect(settingsOf({ NODE_ENV: 'development' })).toBeNull();
  });

  it('refuses production without SES', () => {
    expect(problemsOf({ NODE_ENV: 'production' })).toEqual([
      'SES_REGION: is required in production (the dev mailbox never runs there)',
    ]);
  });

  it('refuses SES without a sender, half a key pair, and an endpoint without a region', () => {
    expect(problemsOf({ SES_REGION: 'eu-west-1', AWS_ACCESS_KEY_ID: 'AKIA' })).toEqual([
      'MAIL_FROM: is required when SES_REGION is set (the sender SES has verified)',
      'AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY: must be set together, or neither',
    ]);
    expect(problemsOf({ SES_ENDPOINT: 'http://127.0.0.1:1' })).toEqual(['SES_ENDPOINT: is set, but SES_REGION is not']);
    expect(() => settingsOf({ SES_REGION: 'Ireland', MAIL_FROM: 'a@b.c' })).toThrow(
      /SES_REGION: must be an AWS region/,
    );
  });

  it('uses SES in production with a region and a sender, credentials from the chain unless given', () => {
    expect(
      settingsOf({ NODE_ENV: 'production', SES_REGION: 'eu-west-1', MAIL_FROM: 'Engram <no-reply@e.example>' }),
    ).toEqual({
      region: 'eu-west-1',
      from: 'Engram <no-reply@e.example>',
      endpoint: undefined,
      credentials: undefined,
    });
  });

  it('never hands out the dev mailbox in production', () => {
    const redis = new Redis(testContext().redisUrl, { lazyConnect: true });
    const options = { ses: null, redis, keyPrefix: 'x:', logger: capturedLogger('mail-test').logger };
    expect(() => createMailer({ ...options, production: true })).toThrow(/never runs in production/);
    expect(createMailer({ ...options, production: false }).kind).toBe('dev-mailbox');
    redis.disconnect();
  });
});
