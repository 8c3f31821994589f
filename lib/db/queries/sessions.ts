import "server-only";
import { get, query, run } from "@/lib/db/sql";
import { fromDbTime, toDbTime } from "@/lib/db/dialect";

// Auth.js's database sessions. The lookup asked on every signed-in request is one prepared join.

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

export type SessionRow = { sessionToken: string; userId: string; expires: Date };

/** Stores a new session (Auth.js creates one per sign-in). */
export async function createSession(s: SessionRow): Promise<SessionRow> {
  await query(
    run(`INSERT INTO "Session" (id, sessionToken, userId, expires) VALUES (?, ?, ?, ?)`, crypto.randomUUID(), s.sessionToken, s.userId, toDbTime(s.expires)),
  );
  return s;
}

/** Moves a session's expiry (Auth.js extends it as the person comes back); null when there is no such session. */
export async function updateSessionExpiry(sessionToken: string, expires: Date): Promise<SessionRow | null> {
  const row = await query(get<{ userId: string }>(`UPDATE "Session" SET expires = ? WHERE sessionToken = ? RETURNING userId`, toDbTime(expires), sessionToken));
  return row ? { sessionToken, userId: row.userId, expires } : null;
}

/** Ends a session (sign-out, or an expired one). */
export async function deleteSession(sessionToken: string): Promise<void> {
  await query(run(`DELETE FROM "Session" WHERE sessionToken = ?`, sessionToken));
}
