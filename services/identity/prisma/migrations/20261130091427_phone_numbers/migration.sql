-- Phone numbers (better-auth's phone-number plugin): a verified number in E.164, one account per number.
ALTER TABLE "users" ADD COLUMN     "phone_number" TEXT,
ADD COLUMN     "phone_number_verified" BOOLEAN DEFAULT false;

CREATE UNIQUE INDEX "users_phone_number_key" ON "users"("phone_number");
