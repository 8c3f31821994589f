-- AlterTable
ALTER TABLE "alert_channel" ADD COLUMN     "confirmAttempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "confirmCodeHash" TEXT,
ADD COLUMN     "confirmExpiresAt" TIMESTAMP(3),
ADD COLUMN     "confirmedAt" TIMESTAMP(3);
