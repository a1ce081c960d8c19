-- CreateIndex
CREATE INDEX "create_requests_created_at_idx" ON "create_requests"("created_at");
