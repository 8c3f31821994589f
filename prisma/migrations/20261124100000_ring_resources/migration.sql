-- CreateTable
CREATE TABLE "heart_rate" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "samples" BLOB NOT NULL,
    "syncedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "workout" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT NOT NULL,
    "documentId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "activity" TEXT,
    "start_datetime" TEXT,
    "end_datetime" TEXT,
    "duration" INTEGER,
    "intensity" TEXT,
    "source" TEXT,
    "calories" REAL,
    "distance" REAL,
    "label" TEXT,
    "raw" TEXT NOT NULL,
    "syncedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "ring_session" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT NOT NULL,
    "documentId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "type" TEXT,
    "start_datetime" TEXT,
    "end_datetime" TEXT,
    "duration" INTEGER,
    "mood" TEXT,
    "raw" TEXT NOT NULL,
    "syncedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "vo2_max" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT NOT NULL,
    "documentId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "timestamp" TEXT,
    "vo2_max" INTEGER,
    "raw" TEXT NOT NULL,
    "syncedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "sleep_time" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT NOT NULL,
    "documentId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "status" TEXT,
    "recommendation" TEXT,
    "start_offset" INTEGER,
    "end_offset" INTEGER,
    "day_tz" INTEGER,
    "raw" TEXT NOT NULL,
    "syncedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "rest_mode_period" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT NOT NULL,
    "documentId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "end_day" TEXT,
    "start_time" TEXT,
    "end_time" TEXT,
    "raw" TEXT NOT NULL,
    "syncedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "enhanced_tag" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
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
    "syncedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "ring_tag" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT NOT NULL,
    "documentId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "timestamp" TEXT,
    "text" TEXT,
    "raw" TEXT NOT NULL,
    "syncedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "ring_configuration" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
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
    "syncedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "ring_battery_level" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "samples" BLOB NOT NULL,
    "syncedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

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

