import "server-only";
import { cache } from "react";
import NextAuth from "next-auth";
import { authConfig } from "@/lib/auth/config";

const nextAuth = NextAuth(authConfig);

export const { handlers, signIn, signOut } = nextAuth;
/** The current session (cached per request). */
export const auth = cache(nextAuth.auth);
