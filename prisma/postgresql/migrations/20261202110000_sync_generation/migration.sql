-- AlterTable
ALTER TABLE "User" ADD COLUMN     "syncGeneration" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "syncPausedAt" TIMESTAMP(3);
