-- AlterTable
ALTER TABLE "alert_settings" ADD COLUMN     "quietFrom" INTEGER,
ADD COLUMN     "quietTo" INTEGER;
