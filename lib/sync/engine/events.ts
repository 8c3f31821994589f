import "server-only";
import { logger } from "@/lib/log";
import { RingApiError } from "@/lib/ring/errors";
import { SYNC_COLLECTIONS, type RingCollection } from "@/lib/resources";
import { documentsWrite, personalInfoWrite, type RejectedInput } from "@/lib/db/ingest/documents";
import { dbTime } from "@/lib/db/ingest/driver";
import { documentDelete } from "@/lib/db/queries/ring-documents";
import { getSyncState } from "@/lib/db/queries/sync-state";
import { mapDocument, mapPersonalInfo } from "@/lib/sync/map";
import { noteUnknownValues } from "@/lib/sync/unknown-values";
import { commitPage, updateRunState } from "./commit";
import { summarize, type EngineContext } from "./context";
import { classifyError, describeError, recordFailure } from "./errors";
import { inRun, inRunTx, type SyncRun } from "./runs";

// Webhook documents (one notification: the document fetched, then stored or deleted) and the
// personal_info snapshot.

export type DocumentEvent = {
  userId: string;
  collection: RingCollection;
  eventType: "create" | "update" | "delete";
  objectId: string | null;
};

/** Applies one notification in a run: fetch the document, then upsert it, or delete it when the service answers 404. */
export async function applyDocumentEvent(ctx: EngineContext, run: SyncRun, event: DocumentEvent): Promise<"applied" | "ignored"> {
  const { collection, eventType, objectId } = event;
  const { userId } = run;
  const state = await getSyncState(userId, collection);
  if (state?.status === "not_shared" || state?.status === "expired") return "ignored";
  if (!objectId) return "ignored";
  try {
    const { client } = await ctx.accessFor(run);
    // Every notification is only a hint: the document is asked for, and a delete is applied
    // only when the service answers 404 for it (a forged or stale delete changes nothing).
    const doc = await client.getDocument(collection, objectId);
    if (eventType === "delete" && doc !== null) {
      logger.warn({ userId, collection, eventType }, "delete notification for a document the ring service still has: not deleted");
      return "ignored";
    }
    if (doc === null) {
      await inRunTx(run, (tx) => documentDelete(tx, collection, userId, objectId));
    } else {
      const started = performance.now();
      const r = mapDocument(collection, doc, userId, dbTime(ctx.now()));
      if (r.ok && r.unknown) noteUnknownValues(collection, r.unknown);
      const rows = r.ok ? [r.row] : [];
      const rejected: RejectedInput[] = r.ok ? [] : [{ documentId: r.documentId ?? objectId, day: r.day, raw: r.raw, error: r.error }];
      await commitPage(ctx, {
        run,
        collection,
        write: documentsWrite({ collection, userId, rows, rejected }),
        mapMs: performance.now() - started,
        count: { pages: 0, rejected: 0 },
      });
    }
  } catch (err) {
    const c = classifyError(err);
    if (c.kind === "stop") await recordFailure(ctx, run, collection, err, state?.status ?? "idle");
    throw err;
  }
  if (state) {
    const s = await summarize(userId, collection);
    await updateRunState(run, collection, { ...s, lastSuccessAt: ctx.now() });
  }
  return "applied";
}

/**
 * Takes the personal_info snapshot (on connect and daily). A snapshot without `id` degrades
 * to the ring account already known for the person (the connection's account id) instead of
 * failing.
 */
export async function snapshotPersonalInfo(ctx: EngineContext, run: SyncRun): Promise<void> {
  const { userId } = run;
  const { client, ringUserId: known } = await ctx.accessFor(run);
  try {
    const { info, raw } = await client.personalInfo();
    if (!info.id) logger.warn({ userId }, "personal_info came without an id; kept the known ring account");
    const row = mapPersonalInfo(raw, userId, known);
    if (row) await inRun(run, () => personalInfoWrite(row));
  } catch (err) {
    // personal_info answers every token with its id: a 403 here means the membership lapsed.
    if (err instanceof RingApiError && err.status === 403) {
      for (const c of SYNC_COLLECTIONS) {
        await updateRunState(run, c, {
          status: "expired",
          lastError: describeError(new RingApiError({ status: 403, endpoint: err.endpoint, detail: "membership expired" })),
          lastAttemptAt: ctx.now(),
        });
      }
    }
    throw err;
  }
}
