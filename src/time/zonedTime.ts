/**
 * Wall-clock arithmetic in IANA time zones with nothing but `Intl`. A "wall" time is a local
 * date-time written as if it were UTC epoch milliseconds (`Date.UTC(y, m, d, h)`), so calendar
 * arithmetic (add a day, go to the 1st) is plain UTC arithmetic, and only the conversion to and
 * from real instants needs the zone.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    if (formatters.size >= 1_000) formatters.clear();
    formatters.set(zone, format);
  }
  return format;
}

/** True for an IANA zone id the runtime knows: `isTimeZone('Europe/Berlin')`. */
export function isTimeZone(zone: string): boolean {
  if (zone.trim() === '') return false;
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}

/** The canonical spelling of a zone typed in any case (`america/sao_paulo` → `America/Sao_Paulo`). */
export function canonicalTimeZone(zone: string): string | undefined {
  if (!isTimeZone(zone)) return undefined;
  let canonical = canonicalZones.get(zone);
  if (canonical === undefined) {
    canonical = formatter(zone).resolvedOptions().timeZone;
    if (canonicalZones.size >= 1_000) canonicalZones.clear();
    canonicalZones.set(zone, canonical);
  }
  return canonical;
}
const canonicalZones = new Map<string, string>();

const MINUTE_MS = 60_000;
// Offsets by zone and minute: ranges resolve the same few instants over and over, and
// `formatToParts` is the slow part. Offsets never change within a minute.
const offsets = new Map<string, number>();

/** The wall clock (as naive UTC milliseconds) that `zone` shows at the instant `epochMs`. */
export function wallClock(epochMs: number, zone: string): number {
  const minute = Math.floor(epochMs / MINUTE_MS) * MINUTE_MS;
  const key = `${zone}|${minute}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    const parts = formatter(zone).formatToParts(new Date(minute));
    const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
    offset = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second')) - minute;
    if (offsets.size >= 10_000) offsets.clear();
    offsets.set(key, offset);
  }
  return epochMs + offset;
}

/** The zone's UTC offset at an instant, in milliseconds (−3 h for São Paulo today). */
export function offsetAt(epochMs: number, zone: string): number {
  return wallClock(epochMs, zone) - epochMs;
}

const DAY_MS = 86_400_000;

/**
 * The instant at which `zone` shows the wall time `wall`. An ambiguous wall time (the repeated
 * hour when clocks fall back) gives its first occurrence; a wall time that does not exist (skipped
 * when clocks spring forward) is read with the offset in force before the gap, i.e. moved forward
 * by the gap (02:30 → 03:30), so a day whose midnight was skipped starts when the clocks jumped.
 */
export function wallToEpoch(wall: number, zone: string): number {
  const before = offsetAt(wall - DAY_MS, zone);
  const after = offsetAt(wall + DAY_MS, zone);
  const candidates = [wall - before, wall - after].filter((t) => wallClock(t, zone) === wall);
  if (candidates.length > 0) return Math.min(...candidates);
  return wall - before;
}

/** The wall time at midnight starting the wall day that holds `wall`. */
export function startOfWallDay(wall: number): number {
  return Math.floor(wall / DAY_MS) * DAY_MS;
}

/** Adds whole calendar days to a wall time. */
export function addWallDays(wall: number, days: number): number {
  return wall + days * DAY_MS;
}

/** Adds calendar months to a wall date at the 1st of a month. */
export function addWallMonths(wall: number, months: number): number {
  const d = new Date(wall);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1);
}

/** ISO 8601 with the zone's offset at that instant: `2026-11-19T00:00:00-03:00`. */
export function isoInZone(epochMs: number, zone: string): string {
  const offset = Math.round(offsetAt(epochMs, zone) / 60_000);
  const wall = new Date(epochMs + offset * 60_000).toISOString().slice(0, 19);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${wall}${sign}${hh}:${mm}`;
}
