-- CreateTable
CREATE TABLE "create_requests" (
    "owner_id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "digest" TEXT NOT NULL,
    "card_ids" UUID[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "create_requests_pkey" PRIMARY KEY ("owner_id","key")
);
