// Text messages: through SNS with the real AWS SDK against a protocol-level fake (sent, refused, unreachable),
// into the dev mailbox in a real Redis beside the mail (the box of the number), and which of them (or none) a
// service gets from its configuration.
import { randomBytes } from 'node:crypto';
import { ConfigError, parseConfig, vars } from '@engram/kit/config';
import { mailVars } from '@engram/kit/mail/config';
import { devMailbox, readDevMailbox, TEXT_MESSAGE_SUBJECT } from '@engram/kit/mail/dev-mailbox';
import { smsRouteOf, smsVars } from '@engram/kit/sms/config';
import { createSmsSender, SmsDeliveryError } from '@engram/kit/sms/create-sender';
import { snsSender } from '@engram/kit/sms/sns';
import { capturedLogger } from '@engram/testkit/captured-logger';
import { testContext } from '@engram/testkit/context';
import { type SnsFake, startSnsFake } from '@engram/testkit/sns-fake';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const text = 'Your Engram code is 482913. It works for 5 minutes. Never share it.\n\n@engram.example #482913';
const credentials = { accessKeyId: 'AKIAENGRAMTEST', secretAccessKey: 'not-a-real-secret' };

describe('SNS', () => {
  let fake: SnsFake;
  beforeAll(async () => {
    fake = await startSnsFake();
  });
  afterAll(() => fake?.stop());

  it('publishes one transactional SMS to the number, with the sender ID, signed for the region', async () => {
    const { logger, lines } = capturedLogger('sms-test');
    const sender = snsSender({ region: 'sa-east-1', endpoint: fake.url, senderId: 'Engram', credentials }, logger);
    await sender.send({ to: '+5511912345678', text });
    sender.close();

    const request = fake.requests.at(-1);
    expect(request).toMatchObject({
      action: 'Publish',
      phoneNumber: '+5511912345678',
      message: text,
      attributes: { 'AWS.SNS.SMS.SMSType': 'Transactional', 'AWS.SNS.SMS.SenderID': 'Engram' },
    });
    expect(request?.authorization).toMatch(/Credential=AKIAENGRAMTEST\/\d{8}\/sa-east-1\/sns\/aws4_request/);
    // The log tells messages apart without writing the number down.
    const logged = lines.find((line) => line.msg === 'text message sent through SNS');
    expect(logged).toMatchObject({ sms: { to: '••••••••••5678', messageId: request?.messageId } });
    expect(JSON.stringify(lines)).not.toContain('912345678');
  });

  it('sends no sender ID where none is configured', async () => {
    const sender = snsSender({ region: 'us-east-1', endpoint: fake.url, credentials }, capturedLogger('sms').logger);
    await sender.send({ to: '+12025550143', text });
    sender.close();
    expect(fake.requests.at(-1)?.attributes).toEqual({ 'AWS.SNS.SMS.SMSType': 'Transactional' });
  });

  it('reports a message SNS refuses as a failed send, logs it, and keeps sending', async () => {
    const { logger, lines } = capturedLogger('sms-test');
    const sender = snsSender({ region: 'us-east-1', endpoint: fake.url, credentials }, logger);
    fake.rejectNext();
    const failure = await sender.send({ to: '+12025550143', text }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(SmsDeliveryError);
    expect((failure as SmsDeliveryError).message).toBe('SNS did not send the text message (InvalidParameterException)');
    expect(lines.find((line) => line.msg === 'SNS did not send a text message')).toMatchObject({ level: 'error' });

    await sender.send({ to: '+12025550143', text });
    expect(fake.requests.at(-1)?.messageId).toEqual(expect.any(String));
    sender.close();
  });

  it('reports an unreachable endpoint as a failed send', async () => {
    const gone = await startSnsFake();
    await gone.stop();
    const sender = snsSender({ region: 'us-east-1', endpoint: gone.url, credentials }, capturedLogger('sms').logger);
    await expect(sender.send({ to: '+12025550143', text })).rejects.toBeInstanceOf(SmsDeliveryError);
    sender.close();
  });
});

describe('text messages in the dev mailbox', () => {
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis(testContext().redisUrl);
  });
  afterAll(() => redis?.quit());

  it('are kept in the box of their number, beside the mail, marked as text messages', async () => {
    const keyPrefix = `${testContext().subjectPrefix}${randomBytes(3).toString('hex')}:`;
    const logger = capturedLogger('sms-test').logger;
    const sender = createSmsSender({ route: { kind: 'dev-mailbox' }, production: false, redis, keyPrefix, logger });
    await sender?.send({ to: '+5511912345678', text: 'Code <b>1</b>\nand more' });
    await devMailbox(redis, keyPrefix, logger).send({ to: 'ada@example.com', subject: 'mail', text: 't', html: 'h' });

    expect(await readDevMailbox(redis, keyPrefix, '+5511912345678')).toEqual([
      {
        to: '+5511912345678',
        subject: TEXT_MESSAGE_SUBJECT,
        text: 'Code <b>1</b>\nand more',
        html: '<p>Code &#60;b&#62;1&#60;/b&#62;<br>and more</p>',
        sentAt: expect.any(String),
        channel: 'sms',
      },
    ]);
    expect((await readDevMailbox(redis, keyPrefix, 'ada@example.com'))[0]?.channel).toBe('mail');
  });
});

describe('choosing the text-message sender', () => {
  const shape = { NODE_ENV: vars.nodeEnv, ...mailVars, ...smsVars };
  const routeOf = (env: Record<string, string>) => smsRouteOf('identity', parseConfig('identity', shape, env));

  it('keeps texts in the dev mailbox outside production, and sends none in production without SNS', () => {
    expect(routeOf({ NODE_ENV: 'development' })).toEqual({ kind: 'dev-mailbox' });
    expect(routeOf({ NODE_ENV: 'production' })).toEqual({ kind: 'none' });
  });

  it('uses SNS where a region is set, in any mode, with the shared AWS credentials when given', () => {
    expect(
      routeOf({
        NODE_ENV: 'production',
        SNS_REGION: 'sa-east-1',
        SMS_SENDER_ID: 'Engram',
        AWS_ACCESS_KEY_ID: 'AKIA',
        AWS_SECRET_ACCESS_KEY: 'secret',
      }),
    ).toEqual({
      kind: 'sns',
      sns: {
        region: 'sa-east-1',
        endpoint: undefined,
        senderId: 'Engram',
        credentials: { accessKeyId: 'AKIA', secretAccessKey: 'secret' },
      },
    });
  });

  it('refuses an endpoint or a sender ID without a region, and a sender ID SNS would refuse', () => {
    let problems: string[] = [];
    try {
      routeOf({ SNS_ENDPOINT: 'http://127.0.0.1:1', SMS_SENDER_ID: 'Engram' });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      problems = (error as ConfigError).problems;
    }
    expect(problems).toEqual([
      'SNS_ENDPOINT: is set, but SNS_REGION is not',
      'SMS_SENDER_ID: is set, but SNS_REGION is not',
    ]);
    expect(() => routeOf({ SNS_REGION: 'sa-east-1', SMS_SENDER_ID: 'Engram Learning' })).toThrow(
      /SMS_SENDER_ID: must be 1 to 11 letters and digits/,
    );
  });

  it('never hands out the dev mailbox in production, and no sender where none is routed', () => {
    const redis = new Redis(testContext().redisUrl, { lazyConnect: true });
    const options = { redis, keyPrefix: 'x:', logger: capturedLogger('sms-test').logger };
    expect(() => createSmsSender({ ...options, route: { kind: 'dev-mailbox' }, production: true })).toThrow(
      /never runs in production/,
    );
    expect(createSmsSender({ ...options, route: { kind: 'none' }, production: true })).toBeNull();
    redis.disconnect();
  });
});
