import "server-only";
import type { NextAuthConfig } from "next-auth";
import { PrismaAdapter } from "@auth/prisma-adapter";
import { db } from "@/lib/db";
import { resolveSecret } from "@/lib/secrets";
import { ringProvider } from "@/lib/auth/ring-provider";

declare module "next-auth" {
  interface Session {
    user: { id: string; email?: string | null; name?: string | null; image?: string | null };
  }
}

export const authConfig = {
  adapter: PrismaAdapter(db),
  session: { strategy: "database" },
  trustHost: true,
  secret: resolveSecret("auth-secret"),
  providers: [ringProvider()],
  pages: { signIn: "/sign-in", error: "/sign-in/error" },
  callbacks: {
    session({ session, user }) {
      session.user.id = user.id;
      return session;
    },
  },
} satisfies NextAuthConfig;
