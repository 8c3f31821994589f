// Once per chaos run: a clean place for this run's captured logs and figures.
import fs from "node:fs";
import path from "node:path";

export default function setup(): void {
  const data = path.resolve("e2e/chaos/.data");
  for (const dir of ["logs", "figures", "issued"]) {
    fs.rmSync(path.join(data, dir), { recursive: true, force: true });
    fs.mkdirSync(path.join(data, dir), { recursive: true });
  }
}
