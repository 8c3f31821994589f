import "server-only";
import { RESOURCES, isRingCollection, isSeriesCollection, type SyncCollection } from "@/lib/resources";

// Names in the ring maker's account export: which file holds which collection (the registry's
// `exportFile`), whatever its casing, separators or `oura` prefix, and which entry names are
// refused outright (paths that point outside the archive).

/** A file's name as the import matches it: its base name, lower case, letters and digits only, no `oura` prefix, no `.csv`. */
export function fileKey(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? name;
  let key = base
    .replace(/\.csv$/i, "")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
  if (key.startsWith("oura") && key.length > 4) key = key.slice(4);
  return key;
}

const BY_FILE = new Map<string, SyncCollection>(
  RESOURCES.flatMap((r) =>
    r.exportFile && (isRingCollection(r.name) || isSeriesCollection(r.name)) ? [[r.exportFile, r.name as SyncCollection] as const] : [],
  ),
);

/** The collection a file of the account export holds, by its name; null when Ringside does not map it. */
export function collectionForFile(name: string): SyncCollection | null {
  return BY_FILE.get(fileKey(name)) ?? null;
}

/** The longest entry name accepted. */
const MAX_NAME_CHARS = 512;

/**
 * Why an entry name of a ZIP is refused, or null when it is a plain relative path: no absolute
 * path or drive letter, no `..` segment, no backslash, no control character, not too long.
 */
export function entryNameProblem(name: string): string | null {
  if (name.length === 0) return "an entry has no name";
  if (name.length > MAX_NAME_CHARS) return `an entry's name is longer than ${MAX_NAME_CHARS} characters`;
  if (/[\u0000-\u001f\u007f]/.test(name)) return `the entry name ${JSON.stringify(name)} holds a control character`;
  if (name.includes("\\")) return `the entry name ${JSON.stringify(name)} holds a backslash (a path trick)`;
  if (/^[a-zA-Z]:/.test(name) || name.startsWith("/")) return `the entry ${JSON.stringify(name)} is an absolute path (a path trick)`;
  if (name.split("/").includes("..")) return `the entry ${JSON.stringify(name)} points outside the archive (a path trick)`;
  return null;
}

/** Whether an entry is a CSV file (by its name; its content decides what it holds). */
export function isCsvName(name: string): boolean {
  return /\.csv$/i.test(name);
}

/**
 * The export's data folder: the folder of its `dailysleep` or `dailyactivity` file (the way
 * other importers find it; its name and depth vary). Null when neither is there: every CSV
 * file is then read where it is.
 */
export function dataFolderOf(names: readonly string[]): string | null {
  for (const name of names) {
    const key = fileKey(name);
    if (key === "dailysleep" || key === "dailyactivity") return folderOf(name);
  }
  return null;
}

/** The folder part of an entry name ("" at the top). */
export function folderOf(name: string): string {
  const i = name.lastIndexOf("/");
  return i === -1 ? "" : name.slice(0, i);
}
