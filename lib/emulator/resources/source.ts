// The source of a user's documents for the derivations: generated documents of any day
// (revision 0 memoized, for neighbours), profile and habits.
import { keyOf } from "@/lib/emulator/prng";
import { indexToDay } from "@/lib/days";
import { formatOffset } from "../generator/local-time";
import { dayGenerator, generatePersonalInfo, type CycleDay, type DayGenerator } from "../generator";
import type { DayDocs, GenerateOptions } from "../generator/types";
import { makeHabits, type Habits } from "./habits";
import { localSecondsFrom, longSleep, num, workoutWindows, type WorkoutWindow } from "./read";

/** One user's view for the derivations: generated documents of any day, profile and habits. */
export class ResourceSource {
  readonly prefix: string;
  readonly offsetMinutes: number;
  readonly offset: string;
  readonly age: number;
  readonly weightKg: number;
  readonly habits: Habits;
  private readonly gen: DayGenerator;
  private readonly memo = new Map<number, DayDocs>();

  constructor(readonly opts: GenerateOptions) {
    this.gen = dayGenerator(opts);
    this.prefix = keyOf([opts.seed, opts.userKey]);
    this.offsetMinutes = opts.tzOffsetMinutes ?? 0;
    this.offset = formatOffset(this.offsetMinutes);
    const info = generatePersonalInfo({ ...opts, userId: "", email: "" });
    this.age = info.age ?? 40;
    this.weightKg = info.weight ?? 75;
    this.habits = makeHabits(this.prefix);
  }

  /** The day's documents at revision 0 (memoized). */
  base(idx: number): DayDocs {
    let d = this.memo.get(idx);
    if (!d) {
      d = this.gen.generate(indexToDay(idx), 0);
      this.memo.set(idx, d);
    }
    return d;
  }

  /** The person's menstrual cycle on a day; null when they have none. */
  cycle(idx: number): CycleDay | null {
    return this.gen.cycleAt(idx);
  }

  /** The day's documents at a revision. */
  at(idx: number, revision: number): DayDocs {
    return revision === 0 ? this.base(idx) : this.gen.generate(indexToDay(idx), revision);
  }

  private readonly nights = new Map<number, { bed: number; efficiency: number | null } | null>();
  private readonly windows = new Map<number, WorkoutWindow[]>();

  /** Revision 0's long sleep of a day: bedtime (seconds relative to its day's midnight) and efficiency. */
  night(idx: number): { bed: number; efficiency: number | null } | null {
    let n = this.nights.get(idx);
    if (n === undefined) {
      const s = longSleep(this.base(idx));
      const bed = s ? localSecondsFrom(idx, s.bedtime_start) : null;
      n = s && bed !== null ? { bed, efficiency: num(s.efficiency) } : null;
      this.nights.set(idx, n);
    }
    return n;
  }

  /** Revision 0's workout windows of a day. */
  workoutWindows(idx: number, cls: string): WorkoutWindow[] {
    let w = this.windows.get(idx);
    if (!w) {
      w = workoutWindows(cls);
      this.windows.set(idx, w);
    }
    return w;
  }
}
