import { ErrorCode, UserInputError } from '../core/index.js';

const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * Milliseconds of a duration as report definitions write it.
 *
 * @example durationMs('6h') // 21_600_000
 */
export function durationMs(text: string): number {
  const match = /^(\d+)(s|m|h|d)$/.exec(text.trim());
  if (!match)
    throw new UserInputError(ErrorCode.DurationInvalid, `"${text}" is not a duration like 90s, 30m, 6h or 1d.`);
  return Number(match[1]) * (UNIT_MS[match[2] ?? 's'] ?? 1_000);
}

/** A duration in words for messages: `6h`, `1h 30m`, `45s`. */
export function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1_000);
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3_600);
  const m = Math.floor((seconds % 3_600) / 60);
  const s = seconds % 60;
  const parts = [d ? `${d}d` : '', h ? `${h}h` : '', m ? `${m}m` : '', s && !d && !h ? `${s}s` : ''].filter(Boolean);
  return parts.length === 0 ? '0s' : parts.join(' ');
}
