-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL,
    "name" TEXT,
    "email" TEXT,
    "emailVerified" TIMESTAMP(3),
    "image" TEXT,
    "role" TEXT NOT NULL DEFAULT 'member',
    "ringUserId" TEXT,
    "units" TEXT NOT NULL DEFAULT 'metric',
    "theme" TEXT NOT NULL DEFAULT 'system',
    "dataVersion" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Account" (
    "id" TEXT NOT NULL,
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
    "tokenUpdatedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Account_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL,
    "sessionToken" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "expires" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "VerificationToken" (
    "identifier" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "expires" TIMESTAMP(3) NOT NULL
);

-- CreateTable
CREATE TABLE "Invite" (
    "id" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "createdById" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "usedByUserId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Invite_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AppSetting" (
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AppSetting_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "daily_sleep" (
    "id" SERIAL NOT NULL,
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
    "syncedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "daily_sleep_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "daily_readiness" (
    "id" SERIAL NOT NULL,
    "userId" TEXT NOT NULL,
    "documentId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "timestamp" TEXT,
    "score" INTEGER,
    "temperature_deviation" DOUBLE PRECISION,
    "temperature_trend_deviation" DOUBLE PRECISION,
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
    "syncedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "daily_readiness_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "daily_activity" (
    "id" SERIAL NOT NULL,
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
    "average_met_minutes" DOUBLE PRECISION,
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
    "syncedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "daily_activity_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "daily_spo2" (
    "id" SERIAL NOT NULL,
    "userId" TEXT NOT NULL,
    "documentId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "spo2_average" DOUBLE PRECISION,
    "breathing_disturbance_index" INTEGER,
    "raw" TEXT NOT NULL,
    "syncedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "daily_spo2_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "daily_stress" (
    "id" SERIAL NOT NULL,
    "userId" TEXT NOT NULL,
    "documentId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "stress_high" INTEGER,
    "recovery_high" INTEGER,
    "day_summary" TEXT,
    "raw" TEXT NOT NULL,
    "syncedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "daily_stress_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "daily_resilience" (
    "id" SERIAL NOT NULL,
    "userId" TEXT NOT NULL,
    "documentId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "level" TEXT,
    "sleep_recovery" DOUBLE PRECISION,
    "daytime_recovery" DOUBLE PRECISION,
    "stress" DOUBLE PRECISION,
    "raw" TEXT NOT NULL,
    "syncedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "daily_resilience_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "daily_cardiovascular_age" (
    "id" SERIAL NOT NULL,
    "userId" TEXT NOT NULL,
    "documentId" TEXT,
    "day" TEXT NOT NULL,
    "vascular_age" INTEGER,
    "pulse_wave_velocity" DOUBLE PRECISION,
    "raw" TEXT NOT NULL,
    "syncedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "daily_cardiovascular_age_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sleep_period" (
    "id" SERIAL NOT NULL,
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
    "average_breath" DOUBLE PRECISION,
    "average_heart_rate" DOUBLE PRECISION,
    "lowest_heart_rate" INTEGER,
    "average_hrv" INTEGER,
    "restless_periods" INTEGER,
    "readiness_score_delta" INTEGER,
    "sleep_score_delta" INTEGER,
    "low_battery_alert" BOOLEAN,
    "raw" TEXT NOT NULL,
    "syncedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sleep_period_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "heart_rate" (
    "id" SERIAL NOT NULL,
    "userId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "samples" BYTEA NOT NULL,
    "syncedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "heart_rate_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "workout" (
    "id" SERIAL NOT NULL,
    "userId" TEXT NOT NULL,
    "documentId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "activity" TEXT,
    "start_datetime" TEXT,
    "end_datetime" TEXT,
    "duration" INTEGER,
    "intensity" TEXT,
    "source" TEXT,
    "calories" DOUBLE PRECISION,
    "distance" DOUBLE PRECISION,
    "label" TEXT,
    "raw" TEXT NOT NULL,
    "syncedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "workout_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ring_session" (
    "id" SERIAL NOT NULL,
    "userId" TEXT NOT NULL,
    "documentId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "type" TEXT,
    "start_datetime" TEXT,
    "end_datetime" TEXT,
    "duration" INTEGER,
    "mood" TEXT,
    "raw" TEXT NOT NULL,
    "syncedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ring_session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "vo2_max" (
    "id" SERIAL NOT NULL,
    "userId" TEXT NOT NULL,
    "documentId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "timestamp" TEXT,
    "vo2_max" INTEGER,
    "raw" TEXT NOT NULL,
    "syncedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "vo2_max_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sleep_time" (
    "id" SERIAL NOT NULL,
    "userId" TEXT NOT NULL,
    "documentId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "status" TEXT,
    "recommendation" TEXT,
    "start_offset" INTEGER,
    "end_offset" INTEGER,
    "day_tz" INTEGER,
    "raw" TEXT NOT NULL,
    "syncedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sleep_time_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rest_mode_period" (
    "id" SERIAL NOT NULL,
    "userId" TEXT NOT NULL,
    "documentId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "end_day" TEXT,
    "start_time" TEXT,
    "end_time" TEXT,
    "raw" TEXT NOT NULL,
    "syncedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "rest_mode_period_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "enhanced_tag" (
    "id" SERIAL NOT NULL,
    "userId" TEXT NOT NULL,
    "documentId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "tag_type_code" TEXT,
    "custom_name" TEXT,
    "start_time" TEXT,
    "end_time" TEXT,
    "end_day" TEXT,
    "comment" TEXT,
    "raw" TEXT NOT NULL,
    "syncedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "enhanced_tag_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ring_tag" (
    "id" SERIAL NOT NULL,
    "userId" TEXT NOT NULL,
    "documentId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "timestamp" TEXT,
    "text" TEXT,
    "raw" TEXT NOT NULL,
    "syncedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ring_tag_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ring_configuration" (
    "id" SERIAL NOT NULL,
    "userId" TEXT NOT NULL,
    "documentId" TEXT NOT NULL,
    "day" TEXT,
    "hardware_type" TEXT,
    "design" TEXT,
    "color" TEXT,
    "size" INTEGER,
    "firmware_version" TEXT,
    "set_up_at" TEXT,
    "raw" TEXT NOT NULL,
    "syncedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ring_configuration_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ring_battery_level" (
    "id" SERIAL NOT NULL,
    "userId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "samples" BYTEA NOT NULL,
    "syncedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ring_battery_level_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "personal_info" (
    "id" SERIAL NOT NULL,
    "userId" TEXT NOT NULL,
    "ringUserId" TEXT NOT NULL,
    "age" INTEGER,
    "weight" DOUBLE PRECISION,
    "height" DOUBLE PRECISION,
    "biological_sex" TEXT,
    "email" TEXT,
    "raw" TEXT NOT NULL,
    "syncedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "personal_info_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rejected_document" (
    "id" SERIAL NOT NULL,
    "userId" TEXT NOT NULL,
    "collection" TEXT NOT NULL,
    "documentId" TEXT,
    "day" TEXT,
    "raw" TEXT NOT NULL,
    "error" TEXT NOT NULL,
    "seenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "rejected_document_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sync_state" (
    "id" SERIAL NOT NULL,
    "userId" TEXT NOT NULL,
    "collection" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'idle',
    "backfillFrom" TEXT,
    "backfillTo" TEXT,
    "cursorStart" TEXT,
    "cursorNextToken" TEXT,
    "backfillDoneAt" TIMESTAMP(3),
    "documentsTotal" INTEGER NOT NULL DEFAULT 0,
    "windowsDone" INTEGER NOT NULL DEFAULT 0,
    "windowsTotal" INTEGER NOT NULL DEFAULT 0,
    "lastSuccessAt" TIMESTAMP(3),
    "lastAttemptAt" TIMESTAMP(3),
    "newestDay" TEXT,
    "lastError" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "sync_state_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "job" (
    "id" SERIAL NOT NULL,
    "kind" TEXT NOT NULL,
    "userId" TEXT,
    "collection" TEXT,
    "payload" TEXT NOT NULL DEFAULT '{}',
    "status" TEXT NOT NULL DEFAULT 'queued',
    "runAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "leaseUntil" TIMESTAMP(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "maxAttempts" INTEGER NOT NULL DEFAULT 8,
    "lastError" TEXT,
    "activeKey" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "job_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_event" (
    "id" SERIAL NOT NULL,
    "dedupeKey" TEXT NOT NULL,
    "ringUserId" TEXT NOT NULL,
    "dataType" TEXT NOT NULL,
    "eventType" TEXT NOT NULL,
    "objectId" TEXT,
    "eventTime" TEXT,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "processedAt" TIMESTAMP(3),
    "status" TEXT NOT NULL DEFAULT 'queued',
    "error" TEXT,

    CONSTRAINT "webhook_event_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_subscription" (
    "id" TEXT NOT NULL,
    "callbackUrl" TEXT NOT NULL,
    "eventType" TEXT NOT NULL,
    "dataType" TEXT NOT NULL,
    "expirationTime" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "lastError" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "webhook_subscription_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "day_note" (
    "id" SERIAL NOT NULL,
    "userId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "day_note_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tag" (
    "id" SERIAL NOT NULL,
    "userId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "color" TEXT,

    CONSTRAINT "tag_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "day_tag" (
    "id" SERIAL NOT NULL,
    "userId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "tagId" INTEGER NOT NULL,

    CONSTRAINT "day_tag_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alert_settings" (
    "userId" TEXT NOT NULL,
    "includeValues" BOOLEAN NOT NULL DEFAULT false,
    "timeZone" TEXT NOT NULL DEFAULT 'UTC',
    "linkBase" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "alert_settings_pkey" PRIMARY KEY ("userId")
);

-- CreateTable
CREATE TABLE "alert_rule" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "params" TEXT NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "alert_rule_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alert_channel" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "url" TEXT,
    "recipient" TEXT,
    "secret" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "alert_channel_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alert_episode" (
    "id" SERIAL NOT NULL,
    "userId" TEXT NOT NULL,
    "ruleId" TEXT,
    "kind" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "dedupeKey" TEXT,
    "title" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "lastSeenAt" TIMESTAMP(3) NOT NULL,
    "endedAt" TIMESTAMP(3),

    CONSTRAINT "alert_episode_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alert_delivery" (
    "id" SERIAL NOT NULL,
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
    "nextAttemptAt" TIMESTAMP(3),
    "lastError" TEXT,
    "sentAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "alert_delivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_token" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "kinds" TEXT NOT NULL,
    "lastUsedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "api_token_pkey" PRIMARY KEY ("id")
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
CREATE UNIQUE INDEX "heart_rate_userId_day_key" ON "heart_rate"("userId", "day");

-- CreateIndex
CREATE INDEX "workout_userId_day_idx" ON "workout"("userId", "day");

-- CreateIndex
CREATE UNIQUE INDEX "workout_userId_documentId_key" ON "workout"("userId", "documentId");

-- CreateIndex
CREATE INDEX "ring_session_userId_day_idx" ON "ring_session"("userId", "day");

-- CreateIndex
CREATE UNIQUE INDEX "ring_session_userId_documentId_key" ON "ring_session"("userId", "documentId");

-- CreateIndex
CREATE INDEX "vo2_max_userId_day_idx" ON "vo2_max"("userId", "day");

-- CreateIndex
CREATE UNIQUE INDEX "vo2_max_userId_documentId_key" ON "vo2_max"("userId", "documentId");

-- CreateIndex
CREATE INDEX "sleep_time_userId_day_idx" ON "sleep_time"("userId", "day");

-- CreateIndex
CREATE UNIQUE INDEX "sleep_time_userId_documentId_key" ON "sleep_time"("userId", "documentId");

-- CreateIndex
CREATE INDEX "rest_mode_period_userId_day_idx" ON "rest_mode_period"("userId", "day");

-- CreateIndex
CREATE UNIQUE INDEX "rest_mode_period_userId_documentId_key" ON "rest_mode_period"("userId", "documentId");

-- CreateIndex
CREATE INDEX "enhanced_tag_userId_day_idx" ON "enhanced_tag"("userId", "day");

-- CreateIndex
CREATE UNIQUE INDEX "enhanced_tag_userId_documentId_key" ON "enhanced_tag"("userId", "documentId");

-- CreateIndex
CREATE INDEX "ring_tag_userId_day_idx" ON "ring_tag"("userId", "day");

-- CreateIndex
CREATE UNIQUE INDEX "ring_tag_userId_documentId_key" ON "ring_tag"("userId", "documentId");

-- CreateIndex
CREATE INDEX "ring_configuration_userId_day_idx" ON "ring_configuration"("userId", "day");

-- CreateIndex
CREATE UNIQUE INDEX "ring_configuration_userId_documentId_key" ON "ring_configuration"("userId", "documentId");

-- CreateIndex
CREATE UNIQUE INDEX "ring_battery_level_userId_day_key" ON "ring_battery_level"("userId", "day");

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

-- CreateIndex
CREATE UNIQUE INDEX "api_token_tokenHash_key" ON "api_token"("tokenHash");

-- CreateIndex
CREATE INDEX "api_token_userId_idx" ON "api_token"("userId");

-- AddForeignKey
ALTER TABLE "Account" ADD CONSTRAINT "Account_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Session" ADD CONSTRAINT "Session_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Invite" ADD CONSTRAINT "Invite_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "day_tag" ADD CONSTRAINT "day_tag_tagId_fkey" FOREIGN KEY ("tagId") REFERENCES "tag"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_settings" ADD CONSTRAINT "alert_settings_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_rule" ADD CONSTRAINT "alert_rule_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_channel" ADD CONSTRAINT "alert_channel_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_episode" ADD CONSTRAINT "alert_episode_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_episode" ADD CONSTRAINT "alert_episode_ruleId_fkey" FOREIGN KEY ("ruleId") REFERENCES "alert_rule"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_delivery" ADD CONSTRAINT "alert_delivery_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_delivery" ADD CONSTRAINT "alert_delivery_episodeId_fkey" FOREIGN KEY ("episodeId") REFERENCES "alert_episode"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_delivery" ADD CONSTRAINT "alert_delivery_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "alert_channel"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_token" ADD CONSTRAINT "api_token_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

