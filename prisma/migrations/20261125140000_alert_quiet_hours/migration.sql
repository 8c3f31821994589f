-- AlterTable
ALTER TABLE "alert_settings" ADD COLUMN "quietFrom" INTEGER;
ALTER TABLE "alert_settings" ADD COLUMN "quietTo" INTEGER;
