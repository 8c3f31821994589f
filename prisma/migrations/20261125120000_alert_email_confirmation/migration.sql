-- AlterTable
ALTER TABLE "alert_channel" ADD COLUMN "confirmedAt" DATETIME;
ALTER TABLE "alert_channel" ADD COLUMN "confirmCodeHash" TEXT;
ALTER TABLE "alert_channel" ADD COLUMN "confirmExpiresAt" DATETIME;
ALTER TABLE "alert_channel" ADD COLUMN "confirmAttempts" INTEGER NOT NULL DEFAULT 0;
