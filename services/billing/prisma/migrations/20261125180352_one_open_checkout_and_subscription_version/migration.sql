-- AlterTable
ALTER TABLE "subscriptions" ADD COLUMN     "version" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "checkouts" (
    "id" UUID NOT NULL,
    "user_id" TEXT NOT NULL,
    "session_id" TEXT,
    "status" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "checkouts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "checkouts_session_id_key" ON "checkouts"("session_id");

-- CreateIndex
CREATE UNIQUE INDEX "checkouts_one_open_per_user" ON "checkouts"("user_id") WHERE (status = 'open');

-- AddForeignKey
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "customers"("user_id") ON DELETE CASCADE ON UPDATE CASCADE;
