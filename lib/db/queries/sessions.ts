import "server-only";
import { get, query } from "@/lib/db/sql";
import { fromDbTime } from "@/lib/db/dialect";

// The Auth.js session lookup asked on every signed-in request: one prepared join instead of a
// Prisma query (the same rows; a quarter of the cost of a small API call).

export type SessionWithUser = {
  session: { sessionToken: string; userId: string; expires: Date };
  user: { id: string; name: string | null; email: string | null; emailVerified: Date | null; image: string | null; role: string };
};

type Row = {
  sessionToken: string;
  userId: string;
  expires: string | number;
  name: string | null;
  email: string | null;
  emailVerified: string | number | null;
  image: string | null;
  role: string;
};

/** A session and its person by the session token (expired ones too: Auth.js checks the date). */
export async function findSessionWithUser(sessionToken: string): Promise<SessionWithUser | null> {
  const row = await query(
    get<Row>(
      `SELECT s.sessionToken, s.userId, s.expires, u.name, u.email, u.emailVerified, u.image, u.role
         FROM "Session" s JOIN "User" u ON u.id = s.userId WHERE s.sessionToken = ?`,
      sessionToken,
    ),
  );
  if (!row) return null;
  const expires = fromDbTime(row.expires);
  if (!expires) return null;
  return {
    session: { sessionToken: row.sessionToken, userId: row.userId, expires },
    user: { id: row.userId, name: row.name, email: row.email, emailVerified: fromDbTime(row.emailVerified), image: row.image, role: row.role },
  };
}
