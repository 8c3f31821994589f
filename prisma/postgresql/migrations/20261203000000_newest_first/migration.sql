-- AlterTable
ALTER TABLE "sync_state" ADD COLUMN     "recentThrough" TEXT;
