import "server-only";
import { revalidatePath } from "next/cache";
import { redirect, unstable_rethrow } from "next/navigation";
import { ZodError } from "zod";
import { AppError, errorBody, type ErrorEnvelope } from "@/lib/http/errors";
import { noteDatabaseError, OUTAGE_MESSAGE } from "@/lib/http/outage";
import { rowIdSchema } from "@/lib/schemas/requests";

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
    // the database away or the disk full: said as such, and remembered (lib/http/outage.ts)
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

/**
 * A Settings form action on one row that the form names by its `field` (a token, rule,
 * channel, invite, member): `who` is the caller (requireUser, requireOwner), checked before
 * the form is read; `act` changes the row (it gets the whole form for any other field), then
 * the settings page is drawn anew. A signed-out caller goes to sign in.
 */
export function settingsRowAction<W>(who: () => Promise<W>, field: string, act: (caller: W, id: string, form: FormData) => Promise<unknown>) {
  return formAction(async (form: FormData): Promise<void | ActionError> =>
    runAction(
      async () => {
        const caller = await who();
        const f = formDataArg(form);
        await act(caller, rowIdSchema.parse(f.get(field)), f);
        revalidatePath("/settings", "layout");
      },
      { signInWhenSignedOut: true },
    ),
  );
}
