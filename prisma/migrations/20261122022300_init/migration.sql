-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT,
    "email" TEXT,
    "emailVerified" DATETIME,
    "image" TEXT,
    "role" TEXT NOT NULL DEFAULT 'member',
    "ringUserId" TEXT,
    "units" TEXT NOT NULL DEFAULT 'metric',
    "theme" TEXT NOT NULL DEFAULT 'system',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "Account" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "userId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "providerAccountId" TEXT NOT NULL,
    "refresh_token" TEXT,
    "access_token" TEXT,
    "expires_at" INTEGER,
    "token_type" TEXT,
    "scope" TEXT,
    "id_token" TEXT,
    "session_state" TEXT,
    "status" TEXT NOT NULL DEFAULT 'active',
    "statusReason" TEXT,
    "tokenUpdatedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Account_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "sessionToken" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "expires" DATETIME NOT NULL,
    CONSTRAINT "Session_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "VerificationToken" (
    "identifier" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "expires" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "Invite" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tokenHash" TEXT NOT NULL,
    "createdById" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "usedAt" DATETIME,
    "usedByUserId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Invite_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "AppSetting" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "value" TEXT NOT NULL,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "daily_sleep" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT NOT NULL,
    "documentId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "timestamp" TEXT,
    "score" INTEGER,
    "deep_sleep" INTEGER,
    "efficiency" INTEGER,
    "latency" INTEGER,
    "rem_sleep" INTEGER,
    "restfulness" INTEGER,
    "timing" INTEGER,
    "total_sleep" INTEGER,
    "raw" TEXT NOT NULL,
    "syncedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "daily_readiness" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT NOT NULL,
    "documentId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "timestamp" TEXT,
    "score" INTEGER,
    "temperature_deviation" REAL,
    "temperature_trend_deviation" REAL,
    "activity_balance" INTEGER,
    "body_temperature" INTEGER,
    "hrv_balance" INTEGER,
    "previous_day_activity" INTEGER,
    "previous_night" INTEGER,
    "recovery_index" INTEGER,
    "resting_heart_rate" INTEGER,
    "sleep_balance" INTEGER,
    "sleep_regularity" INTEGER,
    "raw" TEXT NOT NULL,
    "syncedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "daily_activity" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT NOT NULL,
    "documentId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "timestamp" TEXT,
    "score" INTEGER,
    "active_calories" INTEGER,
    "total_calories" INTEGER,
    "target_calories" INTEGER,
    "steps" INTEGER,
    "equivalent_walking_distance" INTEGER,
    "target_meters" INTEGER,
    "meters_to_target" INTEGER,
    "average_met_minutes" REAL,
    "high_activity_met_minutes" INTEGER,
    "medium_activity_met_minutes" INTEGER,
    "low_activity_met_minutes" INTEGER,
    "sedentary_met_minutes" INTEGER,
    "high_activity_time" INTEGER,
    "medium_activity_time" INTEGER,
    "low_activity_time" INTEGER,
    "sedentary_time" INTEGER,
    "resting_time" INTEGER,
    "non_wear_time" INTEGER,
    "inactivity_alerts" INTEGER,
    "class_5_min" TEXT,
    "meet_daily_targets" INTEGER,
    "move_every_hour" INTEGER,
    "recovery_time" INTEGER,
    "stay_active" INTEGER,
    "training_frequency" INTEGER,
    "training_volume" INTEGER,
    "raw" TEXT NOT NULL,
    "syncedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "daily_spo2" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT NOT NULL,
    "documentId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "spo2_average" REAL,
    "breathing_disturbance_index" INTEGER,
    "raw" TEXT NOT NULL,
    "syncedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "daily_stress" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT NOT NULL,
    "documentId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "stress_high" INTEGER,
    "recovery_high" INTEGER,
    "day_summary" TEXT,
    "raw" TEXT NOT NULL,
    "syncedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "daily_resilience" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT NOT NULL,
    "documentId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "level" TEXT,
    "sleep_recovery" REAL,
    "daytime_recovery" REAL,
    "stress" REAL,
    "raw" TEXT NOT NULL,
    "syncedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "daily_cardiovascular_age" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT NOT NULL,
    "documentId" TEXT,
    "day" TEXT NOT NULL,
    "vascular_age" INTEGER,
    "pulse_wave_velocity" REAL,
    "raw" TEXT NOT NULL,
    "syncedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "sleep_period" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT NOT NULL,
    "documentId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "type" TEXT,
    "bedtime_start" TEXT,
    "bedtime_end" TEXT,
    "period" INTEGER,
    "time_in_bed" INTEGER,
    "total_sleep_duration" INTEGER,
    "awake_time" INTEGER,
    "deep_sleep_duration" INTEGER,
    "light_sleep_duration" INTEGER,
    "rem_sleep_duration" INTEGER,
    "latency" INTEGER,
    "efficiency" INTEGER,
    "average_breath" REAL,
    "average_heart_rate" REAL,
    "lowest_heart_rate" INTEGER,
    "average_hrv" INTEGER,
    "restless_periods" INTEGER,
    "readiness_score_delta" INTEGER,
    "sleep_score_delta" INTEGER,
    "low_battery_alert" BOOLEAN,
    "raw" TEXT NOT NULL,
    "syncedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "personal_info" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT NOT NULL,
    "ringUserId" TEXT NOT NULL,
    "age" INTEGER,
    "weight" REAL,
    "height" REAL,
    "biological_sex" TEXT,
    "email" TEXT,
    "raw" TEXT NOT NULL,
    "syncedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "rejected_document" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT NOT NULL,
    "collection" TEXT NOT NULL,
    "documentId" TEXT,
    "day" TEXT,
    "raw" TEXT NOT NULL,
    "error" TEXT NOT NULL,
    "seenAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "sync_state" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT NOT NULL,
    "collection" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'idle',
    "backfillFrom" TEXT,
    "backfillTo" TEXT,
    "cursorStart" TEXT,
    "cursorNextToken" TEXT,
    "backfillDoneAt" DATETIME,
    "documentsTotal" INTEGER NOT NULL DEFAULT 0,
    "windowsDone" INTEGER NOT NULL DEFAULT 0,
    "windowsTotal" INTEGER NOT NULL DEFAULT 0,
    "lastSuccessAt" DATETIME,
    "lastAttemptAt" DATETIME,
    "newestDay" TEXT,
    "lastError" TEXT,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "job" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "kind" TEXT NOT NULL,
    "userId" TEXT,
    "collection" TEXT,
    "payload" TEXT NOT NULL DEFAULT '{}',
    "status" TEXT NOT NULL DEFAULT 'queued',
    "runAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "leaseUntil" DATETIME,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "maxAttempts" INTEGER NOT NULL DEFAULT 8,
    "lastError" TEXT,
    "activeKey" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "webhook_event" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "dedupeKey" TEXT NOT NULL,
    "ringUserId" TEXT NOT NULL,
    "dataType" TEXT NOT NULL,
    "eventType" TEXT NOT NULL,
    "objectId" TEXT,
    "eventTime" TEXT,
    "receivedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "processedAt" DATETIME,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "error" TEXT
);

-- CreateTable
CREATE TABLE "webhook_subscription" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "callbackUrl" TEXT NOT NULL,
    "eventType" TEXT NOT NULL,
    "dataType" TEXT NOT NULL,
    "expirationTime" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "lastError" TEXT,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "day_note" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "tag" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "color" TEXT
);

-- CreateTable
CREATE TABLE "day_tag" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "tagId" INTEGER NOT NULL,
    CONSTRAINT "day_tag_tagId_fkey" FOREIGN KEY ("tagId") REFERENCES "tag" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE UNIQUE INDEX "User_ringUserId_key" ON "User"("ringUserId");

-- CreateIndex
CREATE INDEX "Account_userId_idx" ON "Account"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "Account_provider_providerAccountId_key" ON "Account"("provider", "providerAccountId");

-- CreateIndex
CREATE UNIQUE INDEX "Session_sessionToken_key" ON "Session"("sessionToken");

-- CreateIndex
CREATE INDEX "Session_userId_idx" ON "Session"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "VerificationToken_identifier_token_key" ON "VerificationToken"("identifier", "token");

-- CreateIndex
CREATE UNIQUE INDEX "Invite_tokenHash_key" ON "Invite"("tokenHash");

-- CreateIndex
CREATE INDEX "daily_sleep_userId_day_idx" ON "daily_sleep"("userId", "day");

-- CreateIndex
CREATE UNIQUE INDEX "daily_sleep_userId_documentId_key" ON "daily_sleep"("userId", "documentId");

-- CreateIndex
CREATE INDEX "daily_readiness_userId_day_idx" ON "daily_readiness"("userId", "day");

-- CreateIndex
CREATE UNIQUE INDEX "daily_readiness_userId_documentId_key" ON "daily_readiness"("userId", "documentId");

-- CreateIndex
CREATE INDEX "daily_activity_userId_day_idx" ON "daily_activity"("userId", "day");

-- CreateIndex
CREATE UNIQUE INDEX "daily_activity_userId_documentId_key" ON "daily_activity"("userId", "documentId");

-- CreateIndex
CREATE INDEX "daily_spo2_userId_day_idx" ON "daily_spo2"("userId", "day");

-- CreateIndex
CREATE UNIQUE INDEX "daily_spo2_userId_documentId_key" ON "daily_spo2"("userId", "documentId");

-- CreateIndex
CREATE INDEX "daily_stress_userId_day_idx" ON "daily_stress"("userId", "day");

-- CreateIndex
CREATE UNIQUE INDEX "daily_stress_userId_documentId_key" ON "daily_stress"("userId", "documentId");

-- CreateIndex
CREATE INDEX "daily_resilience_userId_day_idx" ON "daily_resilience"("userId", "day");

-- CreateIndex
CREATE UNIQUE INDEX "daily_resilience_userId_documentId_key" ON "daily_resilience"("userId", "documentId");

-- CreateIndex
CREATE INDEX "daily_cardiovascular_age_userId_documentId_idx" ON "daily_cardiovascular_age"("userId", "documentId");

-- CreateIndex
CREATE UNIQUE INDEX "daily_cardiovascular_age_userId_day_key" ON "daily_cardiovascular_age"("userId", "day");

-- CreateIndex
CREATE INDEX "sleep_period_userId_day_idx" ON "sleep_period"("userId", "day");

-- CreateIndex
CREATE UNIQUE INDEX "sleep_period_userId_documentId_key" ON "sleep_period"("userId", "documentId");

-- CreateIndex
CREATE UNIQUE INDEX "personal_info_userId_key" ON "personal_info"("userId");

-- CreateIndex
CREATE INDEX "rejected_document_userId_collection_idx" ON "rejected_document"("userId", "collection");

-- CreateIndex
CREATE UNIQUE INDEX "sync_state_userId_collection_key" ON "sync_state"("userId", "collection");

-- CreateIndex
CREATE UNIQUE INDEX "job_activeKey_key" ON "job"("activeKey");

-- CreateIndex
CREATE INDEX "job_status_runAt_idx" ON "job"("status", "runAt");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_event_dedupeKey_key" ON "webhook_event"("dedupeKey");

-- CreateIndex
CREATE INDEX "webhook_event_ringUserId_idx" ON "webhook_event"("ringUserId");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_subscription_eventType_dataType_key" ON "webhook_subscription"("eventType", "dataType");

-- CreateIndex
CREATE UNIQUE INDEX "day_note_userId_day_key" ON "day_note"("userId", "day");

-- CreateIndex
CREATE UNIQUE INDEX "tag_userId_name_key" ON "tag"("userId", "name");

-- CreateIndex
CREATE INDEX "day_tag_userId_tagId_idx" ON "day_tag"("userId", "tagId");

-- CreateIndex
CREATE UNIQUE INDEX "day_tag_userId_day_tagId_key" ON "day_tag"("userId", "day", "tagId");
