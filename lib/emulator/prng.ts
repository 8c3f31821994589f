// Deterministic pseudo-random numbers for the emulator's data generator.
// A string key (seed, user, day, purpose...) is hashed with cyrb128 into 128 bits, which seed
// an sfc32 generator. Nothing here touches Math.random or the clock, so the same key always
// yields the same sequence on every platform.

const SEP = "\u001f";

/** cyrb128: a fast 128-bit string hash (four unsigned 32-bit words). Not cryptographic. */
export function hash128(str: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < str.length; i++) {
    const k = str.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044597);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044597);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

/** Joins key parts with a separator that cannot be confused with their content. */
export function keyOf(parts: readonly (string | number)[]): string {
  return parts.join(SEP);
}

/** sfc32 generator with convenience draws. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(a: number, b: number, c: number, d: number) {
    this.a = a | 0;
    this.b = b | 0;
    this.c = c | 0;
    this.d = d | 0;
    // A few rounds so that similar keys diverge fully.
    for (let i = 0; i < 8; i++) this.next();
  }

  /** Uniform in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** Uniform in [min, max). */
  range(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** Integer in [min, max] (both inclusive). */
  int(min: number, max: number): number {
    return min + Math.floor((max - min + 1) * this.next());
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** Standard normal draw (Box-Muller, one value per two uniforms). */
  normal(): number {
    const u = 1 - this.next(); // (0, 1]
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}

/** A generator keyed by the given parts. */
export function rngFor(...parts: (string | number)[]): Rng {
  const [a, b, c, d] = hash128(keyOf(parts));
  return new Rng(a, b, c, d);
}

/** Approximately standard normal (sum of four uniforms, rescaled) from a key. */
export function hashNormal(...parts: (string | number)[]): number {
  const [a, b, c, d] = hash128(keyOf(parts));
  return ((a + b + c + d) / 4294967296 - 2) * Math.SQRT2 * Math.sqrt(1.5);
}

/** A lower-case UUID v4-shaped string derived from the key (stable across calls). */
export function uuidFor(...parts: (string | number)[]): string {
  const words = hash128(keyOf(parts));
  let hex = "";
  for (const w of words) hex += w.toString(16).padStart(8, "0");
  const variant = (8 | (parseInt(hex[16] ?? "0", 16) & 3)).toString(16);
  return hex.slice(0, 8) + "-" + hex.slice(8, 12) + "-4" + hex.slice(13, 16) + "-" + variant + hex.slice(17, 20) + "-" + hex.slice(20, 32);
}

/** Uniform in [0, 1) from a key, without building a generator. */
export function hashUnit(...parts: (string | number)[]): number {
  return hash128(keyOf(parts))[0] / 4294967296;
}
