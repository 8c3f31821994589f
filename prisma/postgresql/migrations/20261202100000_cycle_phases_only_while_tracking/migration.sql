-- The ring service's cycle phases are kept only while the person tracks their cycle: what was
-- synced before for a person who does not track goes, with its sync state (turning tracking on
-- fetches it anew).
DELETE FROM "daily_cycle_phases" WHERE "userId" NOT IN (SELECT "userId" FROM "cycle_settings" WHERE "tracking" = true);
DELETE FROM "sync_state" WHERE "collection" = 'daily_cycle_phases' AND "userId" NOT IN (SELECT "userId" FROM "cycle_settings" WHERE "tracking" = true);
