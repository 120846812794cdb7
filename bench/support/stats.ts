/** Small statistics helpers shared by the benchmarks. */

/** The q-quantile (0..1) of the samples, by nearest rank. */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index] as number;
}

export const median = (samples: readonly number[]): number => quantile(samples, 0.5);

/** Resident set size in MiB. */
export const rssMiB = (): number => process.memoryUsage().rss / 1024 / 1024;

/** Samples RSS every `everyMs` until stopped; returns the peak in MiB. */
export function trackPeakRss(everyMs = 20): { stop(): number } {
  let peak = rssMiB();
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMiB());
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, rssMiB());
    },
  };
}

export const fmt = (n: number, digits = 1): string => n.toFixed(digits);
