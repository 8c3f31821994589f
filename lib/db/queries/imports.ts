import "server-only";
import { z } from "zod";
import { prisma, type Db } from "@/lib/db/prisma";
import { claimLease, deleteAppSetting, getAppSetting, leaseSettingKey, listAppSettings, settingWrite } from "@/lib/db/queries/app-settings";

// One import at a time per person, and where it is: a lease (`import:<person>`, held by the
// running import and renewed as it goes, so a process that died frees it) and the import's
// state (a setting `import-state:<person>`): its phase, the file and row it is at for the
// progress bar, and — while storing — the checkpoint, written in the same transaction as the
// rows it counts, from which an interrupted import resumes.

export const IMPORT_STATUSES = ["checking", "storing", "interrupted", "done", "failed"] as const;

export const importStateSchema = z.object({
  id: z.string(),
  status: z.enum(IMPORT_STATUSES),
  dryRun: z.boolean(),
  /** what was uploaded: Ringside's export, the ring maker's account export (ZIP), or CSV files */
  kind: z.enum(["ringside", "account_export", "csv"]).nullable(),
  /** the file being read (its name in the upload or the archive) */
  file: z.string().nullable(),
  /** rows read or stored in this phase, and how many there are (known once checked) */
  rows: z.number().int(),
  totalRows: z.number().int().nullable(),
  startedAt: z.number(),
  phaseStartedAt: z.number(),
  /** storing: items (rows) stored and committed; an interrupted import resumes after them */
  checkpoint: z.number().int(),
  /** the folder of the spooled upload (kept while interrupted) and its files, in reading order */
  spoolDir: z.string().nullable(),
  sources: z.array(z.object({ name: z.string(), path: z.string(), kind: z.enum(["zip", "csv", "json"]) })),
  /** why it was interrupted or failed */
  message: z.string().nullable(),
  options: z.object({ replaceNotes: z.boolean() }),
  /** the last import's answer (done) */
  result: z.unknown().optional(),
});

export type ImportState = z.infer<typeof importStateSchema>;

const stateKey = (userId: string) => `import-state:${userId}`;
const leaseName = (userId: string) => `import:${userId}`;

/** How long an import's lease lasts without renewal (it renews at each step it records). */
export const IMPORT_LEASE_MS = 120_000;

/** Takes (or renews) the person's import lease for `holder`; false while another import holds it. */
export function claimImportLease(userId: string, holder: string, now: number): Promise<boolean> {
  return claimLease(leaseName(userId), holder, IMPORT_LEASE_MS, now);
}

/** Gives the lease up (a lease that ends now is free). */
export async function releaseImportLease(userId: string, holder: string, now: number): Promise<void> {
  await claimLease(leaseName(userId), holder, 0, now);
}

export function readImportState(userId: string): Promise<ImportState | undefined> {
  return getAppSetting(stateKey(userId), importStateSchema);
}

/** Records the state as a step of the caller's transaction (the checkpoint of a chunk). */
export function importStateWrite(db: Db, userId: string, state: ImportState): Promise<void> {
  return settingWrite(db, stateKey(userId), JSON.stringify(state));
}

export function saveImportState(userId: string, state: ImportState): Promise<void> {
  return importStateWrite(prisma(), userId, state);
}

export function clearImportState(userId: string): Promise<void> {
  return deleteAppSetting(stateKey(userId));
}

/** Every person's import state (the start-up sweep reads them). */
export async function listImportStates(): Promise<Array<{ userId: string; state: ImportState }>> {
  const rows = await listAppSettings("import-state:");
  return rows.flatMap((r) => {
    const parsed = importStateSchema.safeParse(parseJson(r.value));
    return parsed.success ? [{ userId: r.key.slice("import-state:".length), state: parsed.data }] : [];
  });
}

function parseJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return null;
  }
}

/** Forgets a person's import: its state and its lease (their removal). */
export async function deleteImportRows(userId: string): Promise<void> {
  await deleteAppSetting(stateKey(userId));
  await deleteAppSetting(leaseSettingKey(leaseName(userId)));
}
