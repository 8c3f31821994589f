import "server-only";
import { redirect, unstable_rethrow } from "next/navigation";
import { ZodError } from "zod";
import { AppError, errorBody, type ErrorEnvelope } from "@/lib/api/errors";
import { noteDatabaseError, OUTAGE_MESSAGE } from "@/lib/db/outage";

/**
 * Server actions and bad input. Next answers an exception thrown by an action with a 500, so
 * refusals never leave an action as exceptions: an AppError or ZodError (bad arguments, not
 * the owner) becomes the error envelope `{error:{code,message}}` as the action's result, and
 * an expired session on a form action goes to the sign-in page. redirect()/notFound() (and
 * Auth.js signIn/signOut, which redirect) pass through; anything else stays an error.
 */

export type ActionError = ErrorEnvelope;

/** Whether an action's result is the error envelope. */
export function isActionError(value: unknown): value is ActionError {
  return typeof value === "object" && value !== null && "error" in value;
}

type RunOptions = {
  /** form actions send a signed-out caller to sign in (what a person with an expired session needs) */
  signInWhenSignedOut?: boolean;
};

export async function runAction<T>(fn: () => Promise<T>, opts: RunOptions = {}): Promise<T | ActionError> {
  try {
    return await fn();
  } catch (err) {
    unstable_rethrow(err);
    if (err instanceof AppError) {
      if (err.code === "unauthorized" && opts.signInWhenSignedOut) redirect("/sign-in");
      return errorBody(err.code, err.message);
    }
    if (err instanceof ZodError) return errorBody("unprocessable_entity", "The request is not valid.");
    // the database away or the disk full: said as such, and remembered (lib/db/outage.ts)
    const outage = noteDatabaseError(err);
    if (outage) return errorBody("service_unavailable", OUTAGE_MESSAGE[outage]);
    throw err;
  }
}

/** The FormData argument of a form action (anything else is refused as bad input). */
export function formDataArg(value: unknown): FormData {
  if (value instanceof FormData) return value;
  throw new AppError("bad_request", "Send the form's fields.");
}

/**
 * Types a form action for `<form action>`, whose React type wants `Promise<void>`: the browser's
 * form ignores the result, while any other caller still gets the envelope.
 */
export function formAction<A extends unknown[]>(fn: (...args: A) => Promise<void | ActionError>): (...args: A) => Promise<void> {
  return fn as (...args: A) => Promise<void>;
}
