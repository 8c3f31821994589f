import "server-only";
export { db, verifyPragmas } from "@/lib/db/client";
