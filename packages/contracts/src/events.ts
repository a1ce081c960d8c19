// The event catalogue: the one place an event subject is spelled, each paired with the protobuf message
// its payload is. Producers write `enqueueEvent(tx, CardCreated, payload)` and consumers
// `on(CardCreated, handler)` (@engram/kit/events), so a subject and its payload type can never drift apart.

import { SubscriptionChanged as SubscriptionChangedMessage } from '@engram/proto/events/v1/billing';
import {
  CardCreated as CardCreatedMessage,
  ReviewRecorded as ReviewRecordedMessage,
  ReviewRestated as ReviewRestatedMessage,
  ReviewUndone as ReviewUndoneMessage,
} from '@engram/proto/events/v1/cards';
import {
  MemberAdded as MemberAddedMessage,
  MemberRemoved as MemberRemovedMessage,
  MemberRoleChanged as MemberRoleChangedMessage,
  OrganizationDeleted as OrganizationDeletedMessage,
  TeamMemberAdded as TeamMemberAddedMessage,
  TeamMemberRemoved as TeamMemberRemovedMessage,
  UserCreated as UserCreatedMessage,
  UserDeleted as UserDeletedMessage,
  UserUpdated as UserUpdatedMessage,
} from '@engram/proto/events/v1/identity';
import {
  AssignmentCreated as AssignmentCreatedMessage,
  DeckCardPublished as DeckCardPublishedMessage,
  DeckCardWithdrawn as DeckCardWithdrawnMessage,
  DeckSubscribed as DeckSubscribedMessage,
  DeckUnsubscribed as DeckUnsubscribedMessage,
} from '@engram/proto/events/v1/organizations';

/** What ts-proto generates for a message: enough to encode a payload and decode it again. */
export interface MessageCodec<T> {
  encode(message: T): { finish(): Uint8Array };
  decode(bytes: Uint8Array): T;
  fromPartial?(object: never): T;
}

/** One entry of the catalogue: the subject `engram.<service>.<aggregate>.<event>` and its payload message. */
export interface EventDefinition<T> {
  readonly subject: string;
  readonly message: MessageCodec<T>;
}

function defineEvent<T>(subject: string, message: MessageCodec<T>): EventDefinition<T> {
  if (!/^engram\.[a-z]+\.[a-z-]+\.[a-z-]+$/.test(subject)) throw new Error(`not an event subject: ${subject}`);
  return { subject, message };
}

/** A card was created (cards service), committed with the card. */
export const CardCreated = defineEvent('engram.cards.card.created', CardCreatedMessage);

/** A review was recorded (cards service), committed with the review item's new state. */
export const ReviewRecorded = defineEvent('engram.cards.review.recorded', ReviewRecordedMessage);

/**
 * A review's states before and after changed (cards service): a review done before it on another device was synced
 * after it, and it is now scheduled from the state that one left.
 */
export const ReviewRestated = defineEvent('engram.cards.review.restated', ReviewRestatedMessage);

/** A review was undone (cards service): its item is back in the state it had before. */
export const ReviewUndone = defineEvent('engram.cards.review.undone', ReviewUndoneMessage);

/** An account was created (identity; written by a trigger on its users table). */
export const UserCreated = defineEvent('engram.identity.user.created', UserCreatedMessage);

/** A user's profile, role, verification or ban changed (identity; written by a trigger). */
export const UserUpdated = defineEvent('engram.identity.user.updated', UserUpdatedMessage);

/** An account was deleted (identity): every service erases what it kept of the user. */
export const UserDeleted = defineEvent('engram.identity.user.deleted', UserDeletedMessage);

/** A user joined an organization (identity; written by a trigger on its members table). */
export const MemberAdded = defineEvent('engram.identity.member.added', MemberAddedMessage);

/** A user left or was removed from an organization (identity; a trigger): their access ends. */
export const MemberRemoved = defineEvent('engram.identity.member.removed', MemberRemovedMessage);

/** A member's role changed (identity; a trigger). */
export const MemberRoleChanged = defineEvent('engram.identity.member.role-changed', MemberRoleChangedMessage);

/** An organization was deleted (identity; a trigger), after a MemberRemoved for each of its members. */
export const OrganizationDeleted = defineEvent('engram.identity.organization.deleted', OrganizationDeletedMessage);

/** A user joined a team (identity; a trigger on its team members table). */
export const TeamMemberAdded = defineEvent('engram.identity.team-member.added', TeamMemberAddedMessage);

/** A user left a team (identity; a trigger). */
export const TeamMemberRemoved = defineEvent('engram.identity.team-member.removed', TeamMemberRemovedMessage);

/** A user's plan or subscription state changed (billing), committed with the new state. */
export const SubscriptionChanged = defineEvent('engram.billing.subscription.changed', SubscriptionChangedMessage);

/** A card of a shared deck was published or edited (organizations): subscribers' copies follow it. */
export const DeckCardPublished = defineEvent('engram.organizations.deck-card.published', DeckCardPublishedMessage);

/** A card left a shared deck (organizations): subscribers' copies are archived. */
export const DeckCardWithdrawn = defineEvent('engram.organizations.deck-card.withdrawn', DeckCardWithdrawnMessage);

/** A member subscribed to a shared deck (organizations): cards makes their copies. */
export const DeckSubscribed = defineEvent('engram.organizations.deck.subscribed', DeckSubscribedMessage);

/** A member's subscription ended (organizations): cards archives their copies. */
export const DeckUnsubscribed = defineEvent('engram.organizations.deck.unsubscribed', DeckUnsubscribedMessage);

/** A deck was assigned to an organization or a team (organizations): identity mails the members it is for. */
export const AssignmentCreated = defineEvent('engram.organizations.assignment.created', AssignmentCreatedMessage);

/** Every event, for tooling and tests that must see the whole catalogue. */
export const EVENT_CATALOGUE = [
  CardCreated,
  ReviewRecorded,
  ReviewRestated,
  ReviewUndone,
  UserCreated,
  UserUpdated,
  UserDeleted,
  MemberAdded,
  MemberRemoved,
  MemberRoleChanged,
  OrganizationDeleted,
  TeamMemberAdded,
  TeamMemberRemoved,
  SubscriptionChanged,
  DeckCardPublished,
  DeckCardWithdrawn,
  DeckSubscribed,
  DeckUnsubscribed,
  AssignmentCreated,
] as readonly EventDefinition<unknown>[];
