// The two tables every service that publishes or consumes events keeps in its own schema. Services paste
// EVENTS_TABLES_SQL into their first migration and the matching models (README.md here) into
// schema.prisma, so Prisma's view of the schema and the migrations agree. When these change, a service
// that already has the tables pastes the new models and drafts a migration from them (migrate:draft).

/**
 * `outbox_events`: events committed with the change that caused them, waiting for the relay.
 * `seq` gives the relay the order of enqueueing (created_at is the transaction's start time, equal for
 * every event of one transaction). `processed_events`: the events each durable consumer has applied.
 */
export const EVENTS_TABLES_SQL = `
CREATE TABLE "outbox_events" (
    "id" UUID NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "type" TEXT NOT NULL,
    "payload" BYTEA NOT NULL,
    "headers" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMPTZ(6),

    CONSTRAINT "outbox_events_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "outbox_events_unpublished_idx" ON "outbox_events"("seq") WHERE "published_at" IS NULL;

CREATE INDEX "outbox_events_published_at_idx" ON "outbox_events"("published_at") WHERE "published_at" IS NOT NULL;

CREATE TABLE "processed_events" (
    "consumer" TEXT NOT NULL,
    "event_id" UUID NOT NULL,
    "processed_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "processed_events_pkey" PRIMARY KEY ("consumer","event_id")
);

CREATE INDEX "processed_events_processed_at_idx" ON "processed_events"("processed_at");
`;

/**
 * The same tables as Prisma models, for the service's schema.prisma (a test proves the two agree). The
 * partial index needs `previewFeatures = ["partialIndexes"]` in the schema's generator block.
 */
export const EVENTS_PRISMA_MODELS = `
model OutboxEvent {
  id          String    @id @db.Uuid
  seq         BigInt    @default(autoincrement())
  type        String
  payload     Bytes
  headers     Json      @default("{}")
  createdAt   DateTime  @default(now()) @map("created_at") @db.Timestamptz(6)
  publishedAt DateTime? @map("published_at") @db.Timestamptz(6)

  @@index([seq], map: "outbox_events_unpublished_idx", where: raw("published_at IS NULL"))
  @@index([publishedAt], map: "outbox_events_published_at_idx", where: raw("published_at IS NOT NULL"))
  @@map("outbox_events")
}

model ProcessedEvent {
  consumer    String
  eventId     String   @map("event_id") @db.Uuid
  processedAt DateTime @default(now()) @map("processed_at") @db.Timestamptz(6)

  @@id([consumer, eventId])
  @@index([processedAt], map: "processed_events_processed_at_idx")
  @@map("processed_events")
}
`;

/** The LISTEN/NOTIFY channel that wakes a schema's relay; per schema, since services share a database. */
export const OUTBOX_CHANNEL_PREFIX = 'engram_outbox_';
