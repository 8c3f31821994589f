import "server-only";
export { checkDatabase, db, rawDb, verifyPragmas } from "@/lib/db/client";
