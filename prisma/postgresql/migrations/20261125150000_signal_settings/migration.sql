-- AlterTable
ALTER TABLE "User" ADD COLUMN     "sleepNeedMin" INTEGER,
ADD COLUMN     "freeDays" TEXT NOT NULL DEFAULT '6,7';
