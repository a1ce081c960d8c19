// A deck assigned in an organization (organizations' AssignmentCreated) is mailed to every member it is
// meant for: the whole organization, or one team (who is in it now, among the organization's members),
// never its maker and never a banned account, each in the language of their last sign-in, with a link to
// their dashboard where the assignment waits. A mail that was sent is remembered in Redis for the
// event's lifetime in the stream, so a redelivery (after a crash, or a failure to mail someone else)
// mails only those who have not had it.
import { createHash } from 'node:crypto';
import { AssignmentCreated } from '@engram/contracts/events';
import type { ConsumerDeclaration } from '@engram/kit/events/runtime';
import { on } from '@engram/kit/events/subscriptions';
import type { Logger } from '@engram/kit/logger';
import { MailDeliveryError, type Mailer } from '@engram/kit/mail/mailer';
import type { Redis } from 'ioredis';
import type { Db } from '../db.js';
import { htmlOf, MESSAGES } from '../mail/messages.js';
import { readerLanguage } from '../mail/reader-language.js';

/** The consumer's transaction (prismaTransactions of identity's client). */
export type Tx = Parameters<Parameters<Db['$transaction']>[0]>[0];

/** How long a sent notice is remembered: longer than the stream keeps an event to redeliver. */
const SENT_KEPT_SECONDS = 30 * 24 * 60 * 60;

export interface AssignmentNoticeOptions {
  mailer: Mailer;
  redis: Redis;
  keyPrefix: string;
  /** The web app's origin: the mail links to `<origin>/dashboard`. */
  publicBaseUrl: string;
  logger: Logger;
}

const dueText = (due: Date, locale: string) =>
  `${new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(due)} UTC`;

/** The members an assignment is for: the team's, or the organization's; its maker and banned accounts aside. */
async function recipients(tx: Tx, organizationId: string, teamId: string, makerId: string) {
  const members = await tx.member.findMany({
    where: {
      organizationId,
      userId: { not: makerId },
      user: {
        OR: [{ banned: false }, { banned: null }],
        ...(teamId && { teamMembers: { some: { teamId } } }),
      },
    },
    select: { user: { select: { id: true, email: true } } },
  });
  return members.map((member) => member.user);
}

export function assignmentNotices(options: AssignmentNoticeOptions): ConsumerDeclaration<Tx> {
  const { mailer, redis, keyPrefix, logger } = options;
  const url = `${options.publicBaseUrl.replace(/\/+$/, '')}/dashboard`;
  // The member as a hash: nothing in Redis names an account that may be erased before the key expires.
  const sentKey = (assignmentId: string, userId: string) =>
    `${keyPrefix}identity:assignment-notice:${assignmentId}:${createHash('sha256').update(userId).digest('hex')}`;
  return {
    purpose: 'assignment-notices',
    subscriptions: [
      on(AssignmentCreated, async (assignment, { tx }) => {
        const [organization, maker] = await Promise.all([
          tx.organization.findUnique({ where: { id: assignment.organizationId }, select: { name: true } }),
          tx.user.findUnique({ where: { id: assignment.createdBy }, select: { name: true } }),
        ]);
        // The organization went before the event arrived: nobody is left to tell.
        if (!organization) return;
        const to = await recipients(tx, assignment.organizationId, assignment.teamId, assignment.createdBy);
        let failed = 0;
        for (const member of to) {
          const key = sentKey(assignment.assignmentId, member.id);
          if (await redis.exists(key)) continue;
          const locale = await readerLanguage(redis, keyPrefix, member.email);
          const { subject, text } = MESSAGES[locale].assignment({
            url,
            assigner: maker?.name || organization.name,
            organization: organization.name,
            deck: assignment.deckName,
            target: {
              kind: assignment.targetKind === 'retention' ? 'retention' : 'cards_learned',
              value: assignment.targetValue,
            },
            due: dueText(assignment.dueAt ?? new Date(), locale),
          });
          try {
            await mailer.send({ to: member.email, subject, text, html: htmlOf(text) });
            await redis.set(key, '1', 'EX', SENT_KEPT_SECONDS);
          } catch (error) {
            if (!(error instanceof MailDeliveryError)) throw error;
            failed += 1;
          }
        }
        logger.info(
          { assignment: assignment.assignmentId, recipients: to.length, failed },
          'assignment mailed to its members',
        );
        // Redelivered later: those already mailed are skipped.
        if (failed > 0) throw new Error(`The assignment's mail reached ${to.length - failed} of ${to.length}.`);
      }),
    ],
  };
}
