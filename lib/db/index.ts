import "server-only";
export { checkDatabase, rawDb, verifyPragmas } from "@/lib/db/client";
