-- CreateTable
CREATE TABLE "home_assistant_publish" (
    "userId" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT false,
    "kinds" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "home_assistant_publish_pkey" PRIMARY KEY ("userId")
);

-- CreateTable
CREATE TABLE "home_assistant_retraction" (
    "nodeId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "home_assistant_retraction_pkey" PRIMARY KEY ("nodeId")
);

-- AddForeignKey
ALTER TABLE "home_assistant_publish" ADD CONSTRAINT "home_assistant_publish_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The data version announces its moves (lib/db/data-changes.ts): every committed change of a
-- person's User."dataVersion", whichever code made it, is a notification on the channel
-- ringside_data_version with the person's id, delivered at commit to every listener (the Home
-- Assistant publisher), once per transaction and person.
CREATE FUNCTION ringside_announce_data_version() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('ringside_data_version', NEW."id");
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER "User_dataVersion_announce"
  AFTER UPDATE OF "dataVersion" ON "User"
  FOR EACH ROW
  WHEN (OLD."dataVersion" IS DISTINCT FROM NEW."dataVersion")
  EXECUTE FUNCTION ringside_announce_data_version();
