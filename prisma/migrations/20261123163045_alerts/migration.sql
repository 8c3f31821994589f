-- CreateTable
CREATE TABLE "alert_settings" (
    "userId" TEXT NOT NULL PRIMARY KEY,
    "includeValues" BOOLEAN NOT NULL DEFAULT false,
    "timeZone" TEXT NOT NULL DEFAULT 'UTC',
    "linkBase" TEXT,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "alert_settings_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "alert_rule" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "userId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "params" TEXT NOT NULL DEFAULT '{}',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "alert_rule_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "alert_channel" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "userId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "url" TEXT,
    "recipient" TEXT,
    "secret" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "alert_channel_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "alert_episode" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT NOT NULL,
    "ruleId" TEXT,
    "kind" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "dedupeKey" TEXT,
    "title" TEXT NOT NULL,
    "startedAt" DATETIME NOT NULL,
    "lastSeenAt" DATETIME NOT NULL,
    "endedAt" DATETIME,
    CONSTRAINT "alert_episode_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "alert_episode_ruleId_fkey" FOREIGN KEY ("ruleId") REFERENCES "alert_rule" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "alert_delivery" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT NOT NULL,
    "episodeId" INTEGER,
    "channelId" TEXT,
    "channelKind" TEXT NOT NULL,
    "channelLabel" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "link" TEXT,
    "data" TEXT NOT NULL DEFAULT '{}',
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME,
    "lastError" TEXT,
    "sentAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "alert_delivery_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "alert_delivery_episodeId_fkey" FOREIGN KEY ("episodeId") REFERENCES "alert_episode" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "alert_delivery_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "alert_channel" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "alert_rule_userId_idx" ON "alert_rule"("userId");

-- CreateIndex
CREATE INDEX "alert_channel_userId_idx" ON "alert_channel"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "alert_episode_dedupeKey_key" ON "alert_episode"("dedupeKey");

-- CreateIndex
CREATE INDEX "alert_episode_userId_startedAt_idx" ON "alert_episode"("userId", "startedAt");

-- CreateIndex
CREATE INDEX "alert_episode_ruleId_idx" ON "alert_episode"("ruleId");

-- CreateIndex
CREATE INDEX "alert_delivery_status_nextAttemptAt_idx" ON "alert_delivery"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "alert_delivery_userId_createdAt_idx" ON "alert_delivery"("userId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "alert_delivery_episodeId_channelId_key" ON "alert_delivery"("episodeId", "channelId");
