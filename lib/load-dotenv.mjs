// @ts-check
// Loads ./.env (if present) into process.env without overriding variables already set, for
// the entry points that run outside Next (npm start, npm run backup/restore, npm run demo).
import fs from "node:fs";
import path from "node:path";

export function loadDotenv(root = process.cwd()) {
  const file = path.join(root, ".env");
  if (!fs.existsSync(file)) return false;
  process.loadEnvFile(file);
  return true;
}
