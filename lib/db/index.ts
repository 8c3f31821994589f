import "server-only";
export { rawDb, verifyPragmas } from "@/lib/db/client";
export { checkDatabase } from "@/lib/db/prisma";
