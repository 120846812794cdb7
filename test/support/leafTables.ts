/**
 * Synthetic leaf tables for the explanation engine's tests and bench: every combination of the
 * given dimension values is a leaf, with seeded sizes and noise, and optionally a planted cause
 * (a factor on the current period of the matching leaves).
 */
import type { Leaf, LeafTable, Where } from '../../src/explain/index.js';

export interface Plant {
  readonly where: Where;
  readonly factor: number;
  /** Which measure the factor multiplies: the numerator (default; the value of an additive metric) or the denominator. */
  readonly on?: 'num' | 'den';
}

export interface SyntheticOptions {
  readonly dimensions: Readonly<Record<string, readonly string[]>>;
  readonly kind: 'additive' | 'ratio';
  readonly seed: number;
  /** Relative noise of each leaf's current value (standard deviation), e.g. 0.03. */
  readonly noise: number;
  /** Multiplies every leaf's current values (a change spread evenly), default 1. */
  readonly drift?: number;
  readonly plants?: readonly Plant[];
}

/** Seeded uniform numbers in [0, 1): mulberry32. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Every combination of the dimensions' values as a leaf. */
export function syntheticLeaves(options: SyntheticOptions): LeafTable {
  const rand = random(options.seed);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  const names = Object.keys(options.dimensions);
  // Each value has a size weight, so segments differ in size as countries and sources do.
  const weights = names.map((d) => (options.dimensions[d] ?? []).map(() => 0.3 + rand() * 1.7));
  const combos: number[][] = [[]];
  for (const d of names) {
    const n = options.dimensions[d]?.length ?? 0;
    const next: number[][] = [];
    for (const combo of combos) for (let i = 0; i < n; i++) next.push([...combo, i]);
    combos.splice(0, combos.length, ...next);
  }
  const leaves: Leaf[] = combos.map((combo) => {
    const values = combo.map((i, k) => options.dimensions[names[k] as string]?.[i] as string);
    const where = Object.fromEntries(names.map((d, k) => [d, values[k] as string]));
    const size = combo.reduce((w, i, k) => w * (weights[k]?.[i] ?? 1), 200);
    const drift = options.drift ?? 1;
    let num1Factor = drift * Math.max(0.01, 1 + options.noise * gauss());
    let den1Factor = drift * Math.max(0.01, 1 + options.noise * gauss());
    for (const plant of options.plants ?? []) {
      if (!Object.entries(plant.where).every(([d, v]) => where[d] === v)) continue;
      if (plant.on === 'den') den1Factor *= plant.factor;
      else num1Factor *= plant.factor;
    }
    if (options.kind === 'additive') {
      const baseline = Math.round(size);
      return { values, baseline: { num: baseline }, current: { num: Math.round(baseline * num1Factor) } };
    }
    // A ratio like CPI: num (spend) = den (installs) × a per-leaf price.
    const price = 1 + combo.reduce((p, i) => p + i * 0.7, 0);
    const den0 = Math.round(size);
    const den1 = Math.round(den0 * den1Factor);
    const num0 = Math.round(den0 * price * 100) / 100;
    // Spend does not follow a plant on installs: fewer installs for the same spend is a dearer CPI.
    const num1 = Math.round(den0 * price * num1Factor * 100) / 100;
    return { values, baseline: { num: num0, den: den0 }, current: { num: num1, den: den1 } };
  });
  return { kind: options.kind, dimensions: names, ignored: [], leaves };
}

/** The table as the CSV `pivotbot explain --leaves` reads. */
export function leafCsv(table: LeafTable): string {
  const measures =
    table.kind === 'ratio' ? ['current_num', 'current_den', 'baseline_num', 'baseline_den'] : ['current', 'baseline'];
  const lines = [[...table.dimensions, ...measures].join(',')];
  for (const leaf of table.leaves) {
    const numbers =
      table.kind === 'ratio'
        ? [leaf.current.num, leaf.current.den ?? 0, leaf.baseline.num, leaf.baseline.den ?? 0]
        : [leaf.current.num, leaf.baseline.num];
    lines.push([...leaf.values, ...numbers].join(','));
  }
  return `${lines.join('\n')}\n`;
}

/** Countries, platforms, sources and campaigns of a UA team's export. */
export const UA_DIMENSIONS = {
  countryCode: ['US', 'BR', 'DE', 'JP', 'IN', 'FR', 'GB', 'MX'],
  platform: ['ios', 'android'],
  source: ['Vungle', 'AppLovin', 'Unity', 'ironSource', 'Meta'],
  campaign: ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'],
} as const;
