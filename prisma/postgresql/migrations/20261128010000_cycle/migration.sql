-- CreateTable
CREATE TABLE "cycle_entry" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "cycle_entry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "cycle_settings" (
    "userId" TEXT NOT NULL,
    "tracking" BOOLEAN NOT NULL DEFAULT false,
    "hormonalContraception" BOOLEAN NOT NULL DEFAULT false,
    "pregnant" BOOLEAN NOT NULL DEFAULT false,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "cycle_settings_pkey" PRIMARY KEY ("userId")
);

-- CreateIndex
CREATE UNIQUE INDEX "cycle_entry_userId_day_kind_key" ON "cycle_entry"("userId", "day", "kind");

-- AddForeignKey
ALTER TABLE "cycle_entry" ADD CONSTRAINT "cycle_entry_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "cycle_settings" ADD CONSTRAINT "cycle_settings_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
