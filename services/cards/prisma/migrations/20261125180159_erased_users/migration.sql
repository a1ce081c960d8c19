-- CreateTable
CREATE TABLE "erased_users" (
    "user_hash" TEXT NOT NULL,
    "erased_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "erased_users_pkey" PRIMARY KEY ("user_hash")
);
