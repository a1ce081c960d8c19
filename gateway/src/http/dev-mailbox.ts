// GET /api/dev/mailbox?to=<email or phone number>: the messages the dev mailbox keeps for one address, or the
// text messages for one phone number (E.164, +5511912345678), newest first, as
// {messages: [{to, subject, text, html, sentAt, channel}]}. Outside production only (main.ts never mounts it there):
// mail is only kept when no real provider sends it, and then it is for developers and tests to read.
import { readDevMailbox } from '@engram/kit/mail/dev-mailbox';
import type { Request, Response } from 'express';
import type { Redis } from 'ioredis';
import { z } from 'zod';

const TO_PROBLEM = 'to: must be an email address or a phone number in E.164 (+5511912345678)';
const isAddress = (value: string) => z.email().safeParse(value).success || /^\+[1-9]\d{6,14}$/.test(value);
const query = z.object({ to: z.string({ error: TO_PROBLEM }).refine(isAddress, TO_PROBLEM) });

export function devMailboxRoute(redis: Redis, keyPrefix: string) {
  return async (req: Request, res: Response) => {
    const parsed = query.safeParse(req.query);
    if (!parsed.success) {
      res.status(400).json({ code: 'BAD_REQUEST', message: parsed.error.issues[0]?.message ?? 'Invalid request' });
      return;
    }
    try {
      const messages = await readDevMailbox(redis, keyPrefix, parsed.data.to);
      res.set('cache-control', 'no-store').json({ messages });
    } catch (error) {
      req.log.error({ err: error }, 'could not read the dev mailbox');
      res.status(503).json({ code: 'UNAVAILABLE', message: 'The dev mailbox is unavailable.' });
    }
  };
}
