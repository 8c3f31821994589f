// Synthetic people for the cycle bench and its accuracy test: women whose cycles follow the
// published figures (../docs/signals.md, "Cycle"), men, and illnesses planted in both phases.
// Seeded, pure: the same seed gives the same people.
//
//   - cycle: the woman's mean length ~ N(29.3, 2.5) clamped 24–35 days (Bull et al. 2019: mean 29.3),
//     each cycle's length jittered by her own SD (1.5–3.5 days); luteal phase ~ her mean
//     N(12.4, 1.0) ± 1 day, clamped 9–16 (Bull et al.: 12.4, 95 % range 7–17); 5 % of cycles
//     anovulatory (no shift);
//   - temperature: her luteal shift ~ N(0.30, 0.12) °C clamped 0.12–0.6 (Maijala et al. 2019), from
//     1–2 nights after ovulation (60 % the first night), gone by the period's first day;
//   - lowest heart rate +1–3 bpm and ln HRV −0.03 … −0.10 in the luteal phase (Alzueta et al. 2022;
//     Shilaih et al. 2017), breathing rate +0–0.3/min (a convention: no source gives it);
//   - nightly noise: temperature SD 0.07–0.12 °C, heart rate 1.0–1.8 bpm, ln HRV 0.06–0.12,
//     breathing 0.2–0.4/min, each AR(1) with φ 0.3 (men then get about the false alarms a ring's
//     early warning gives them: a few watch nights a year, almost no likely one);
//   - illnesses: 3 a year in the scored year, 4–7 nights: temperature +0.4–1.2 °C, heart rate
//     +4–10 bpm, HRV −10 … −35 %, breathing +0.3–1.5/min (NightSignal; Mishra et al. 2020), the
//     first night at half strength. A woman's illnesses alternate between her follicular and luteal phases.

export type Illness = { onset: number; nights: number; phase: "follicular" | "luteal" | "none" };

export type SyntheticPerson = {
  key: string;
  sex: "woman" | "man";
  /** day of index 0 */
  first: string;
  days: number;
  temperature: number[];
  restingHeartRate: number[];
  hrv: number[];
  breathingRate: number[];
  /** true period starts and ovulations (indices); empty for men */
  periodStarts: number[];
  ovulations: Array<number | null>;
  illnesses: Illness[];
  /** the first index of the scored year */
  scoredFrom: number;
};

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function seedOf(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

export class Rng {
  constructor(private readonly next: () => number) {}
  u(a = 0, b = 1): number {
    return a + (b - a) * this.next();
  }
  n(mean = 0, sd = 1): number {
    const u = Math.max(this.next(), 1e-12);
    return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }
  int(a: number, b: number): number {
    return Math.floor(this.u(a, b + 1));
  }
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

function ar1(rng: Rng, n: number, sd: number, phi = 0.3): number[] {
  const out: number[] = [];
  const e = sd * Math.sqrt(1 - phi * phi);
  let x = rng.n(0, sd);
  for (let i = 0; i < n; i++) {
    out.push(x);
    x = phi * x + rng.n(0, e);
  }
  return out;
}

export type PeopleOptions = { seed: string; women: number; men: number; days: number; first: string; illnessesPerYear?: number };

/** The people of one seed. The scored year is the last 365 days. */
export function makePeople(opts: PeopleOptions): SyntheticPerson[] {
  const out: SyntheticPerson[] = [];
  for (let p = 0; p < opts.women + opts.men; p++) {
    const sex = p < opts.women ? "woman" : "man";
    out.push(makePerson(new Rng(mulberry32(seedOf(`${opts.seed}:${p}`))), `${sex}-${p}`, sex, opts));
  }
  return out;
}

function makePerson(rng: Rng, key: string, sex: "woman" | "man", opts: PeopleOptions): SyntheticPerson {
  const n = opts.days;
  const tSd = rng.u(0.07, 0.12);
  const temperature = ar1(rng, n, tSd);
  const hrBase = rng.u(48, 62);
  const restingHeartRate = ar1(rng, n, rng.u(1.0, 1.8)).map((v) => hrBase + v);
  const hrvLnBase = Math.log(rng.u(30, 80));
  const hrvLn = ar1(rng, n, rng.u(0.06, 0.12)).map((v) => hrvLnBase + v);
  const brBase = rng.u(13, 16);
  const breathingRate = ar1(rng, n, rng.u(0.2, 0.4)).map((v) => brBase + v);
  const periodStarts: number[] = [];
  const ovulations: Array<number | null> = [];
  const lutealAt: string[] = new Array(n).fill("none");
  if (sex === "woman") {
    const meanLen = clamp(rng.n(29.3, 2.5), 24, 35);
    const lenSd = rng.u(1.5, 3.5);
    const lutealMean = clamp(rng.n(12.4, 1.0), 10, 15);
    const shift = clamp(rng.n(0.3, 0.12), 0.12, 0.6);
    const hrShift = rng.u(1, 3);
    const hrvShift = -rng.u(0.03, 0.1);
    const brShift = rng.u(0, 0.3);
    let s = -rng.int(0, 27);
    while (s < n) {
      const len = Math.round(clamp(rng.n(meanLen, lenSd), 21, 45));
      const luteal = Math.round(clamp(rng.n(lutealMean, 1), 9, 16));
      const next = s + len;
      const ovulatory = rng.u() >= 0.05;
      const ov = next - luteal;
      if (s >= 0) periodStarts.push(s);
      if (ovulatory) {
        const lag = rng.int(1, 2);
        for (let i = ov + lag; i < next; i++) {
          if (i < 0 || i >= n) continue;
          const k = i === ov + lag ? 0.6 : 1;
          const scale = k * rng.u(0.85, 1.15);
          temperature[i]! += shift * scale;
          restingHeartRate[i]! += hrShift * k;
          hrvLn[i]! += hrvShift * k;
          breathingRate[i]! += brShift * k;
          lutealAt[i] = "luteal";
        }
        for (let i = Math.max(0, s); i < Math.min(n, ov + lag); i++) lutealAt[i] = "follicular";
      }
      if (s >= 0) ovulations.push(ovulatory ? ov : null);
      s = next;
    }
  }
  const scoredFrom = n - 365;
  const illnesses: Illness[] = [];
  const count = opts.illnessesPerYear ?? 3;
  for (let k = 0; k < count; k++) {
    const want = sex === "man" ? "none" : k % 2 === 0 ? "follicular" : "luteal";
    const lo = scoredFrom + Math.floor((k * 365) / count) + 5;
    const hi = scoredFrom + Math.floor(((k + 1) * 365) / count) - 15;
    let onset = rng.int(lo, hi);
    if (want !== "none") {
      for (let tries = 0; tries < 200 && lutealAt[onset] !== want; tries++) onset = rng.int(lo, hi);
      if (lutealAt[onset] !== want) continue;
    }
    const nights = rng.int(4, 7);
    const dt = rng.u(0.4, 1.2);
    const dhr = rng.u(4, 10);
    const dhrv = Math.log(1 - rng.u(0.1, 0.35));
    const dbr = rng.u(0.3, 1.5);
    for (let i = onset; i < Math.min(n, onset + nights); i++) {
      const k = i === onset ? 0.5 : i === onset + nights - 1 ? 0.6 : 1;
      temperature[i]! += dt * k;
      restingHeartRate[i]! += dhr * k;
      hrvLn[i]! += dhrv * k;
      breathingRate[i]! += dbr * k;
    }
    illnesses.push({ onset, nights, phase: want === "none" ? "none" : (lutealAt[onset] as Illness["phase"]) });
  }
  const r = (v: number, d: number) => Math.round(v * 10 ** d) / 10 ** d;
  return {
    key,
    sex,
    first: opts.first,
    days: n,
    temperature: temperature.map((v) => r(v, 2)),
    restingHeartRate: restingHeartRate.map((v) => Math.round(v)),
    hrv: hrvLn.map((v) => Math.round(Math.exp(v))),
    breathingRate: breathingRate.map((v) => r(v, 3)),
    periodStarts,
    ovulations,
    illnesses,
    scoredFrom,
  };
}

/** Whether night i lies in an illness or the week after it (not a false alarm there). */
export function inIllness(p: SyntheticPerson, i: number): boolean {
  return p.illnesses.some((x) => i >= x.onset - 1 && i < x.onset + x.nights + 7);
}
