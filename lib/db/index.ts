import "server-only";
export { db, rawDb, verifyPragmas } from "@/lib/db/client";
