-- CreateTable
CREATE TABLE "daily_cycle_phases" (
    "id" SERIAL NOT NULL,
    "userId" TEXT NOT NULL,
    "documentId" TEXT,
    "day" TEXT NOT NULL,
    "cycle_day" INTEGER,
    "phase" TEXT,
    "predicted" BOOLEAN,
    "raw" TEXT NOT NULL,
    "syncedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "daily_cycle_phases_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "daily_cycle_phases_userId_documentId_idx" ON "daily_cycle_phases"("userId", "documentId");

-- CreateIndex
CREATE UNIQUE INDEX "daily_cycle_phases_userId_day_key" ON "daily_cycle_phases"("userId", "day");
