// ring_configuration: one ring, replaced once on a fixed day per person (the old one's set_up_at
// may be 1970-01-01T00:00:00+00:00, as observed); firmware as of "today".
import { keyOf, uuidFor } from "@/lib/emulator/prng";
import { isoWithOffset } from "../date-params";
import { DAY_S } from "../generator/local-time";
import type { GenerateOptions } from "../generator/types";
import { FIRMWARE_EPOCH, FIRMWARE_EVERY_DAYS, GEN4_RELEASE, makeHabits } from "./habits";
import type { ResourceSource } from "./source";
import type { ResourceDocument } from "./types";

function firmware(hardware: string, asOf: number, lag: number): string {
  const n = Math.max(0, Math.floor((asOf - FIRMWARE_EPOCH - lag) / FIRMWARE_EVERY_DAYS));
  if (hardware === "gen2") return `1.${9 + Math.floor(n / 12)}.${n % 12}`;
  if (hardware === "gen3") return `2.${8 + Math.floor(n / 7)}.${10 + (n % 7) * 5}`;
  const since = Math.max(0, n - Math.floor((GEN4_RELEASE - FIRMWARE_EPOCH) / FIRMWARE_EVERY_DAYS));
  return `${hardware === "or5" ? 4 : 3}.${Math.floor(since / 7)}.${10 + (since % 7) * 5}`;
}

/**
 * The ring configurations of a person as of `today`: the first ring, and the replacement once
 * its set-up day is on or before `lastDay` (today, or a later day created by sync).
 */
export function ringConfigurations(src: ResourceSource, today: number, lastDay: number): ResourceDocument[] {
  const r = src.habits.ring;
  const replaced = r.replacedIdx <= lastDay;
  const firstAsOf = replaced ? Math.min(today, r.replacedIdx - 1) : today;
  const out: ResourceDocument[] = [
    {
      id: uuidFor(src.prefix, "ext", "ring_configuration", 0),
      color: r.first.color,
      design: r.first.design,
      firmware_version: firmware(r.first.hardware, Math.max(firstAsOf, r.firstSetUpIdx), r.firmwareLag),
      hardware_type: r.first.hardware,
      set_up_at: r.firstSetUpUnknown ? "1970-01-01T00:00:00+00:00" : isoWithOffset((r.firstSetUpIdx * DAY_S + r.firstSetUpSecond) * 1000),
      size: r.first.size,
    },
  ];
  if (replaced) {
    out.push({
      id: uuidFor(src.prefix, "ext", "ring_configuration", 1),
      color: r.second.color,
      design: r.second.design,
      firmware_version: firmware(r.second.hardware, Math.max(today, r.replacedIdx), r.firmwareLag),
      hardware_type: r.second.hardware,
      set_up_at: isoWithOffset((r.replacedIdx * DAY_S + r.secondSetUpSecond) * 1000),
      size: r.second.size,
    });
  }
  return out;
}

/** The day (index) a person's ring is replaced; useful to tests. */
export function ringReplacementIndex(opts: GenerateOptions): number {
  return makeHabits(keyOf([opts.seed, opts.userKey])).ring.replacedIdx;
}
