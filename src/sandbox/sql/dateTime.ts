/** DateTime inputs (date only, local date-time, date-time with offset) and time zones, as SQL. */
import { dateTimeFormat } from '../../core/index.js';
import { offsetAt } from '../../time/index.js';
import type { SqlParams } from './SqlParams.js';

export type DateTimeInput = { kind: 'instant'; iso: string } | { kind: 'local'; local: string };

const DATE_ONLY = /^(\d{4}-\d{2}-\d{2})$/;
const LOCAL = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(:\d{2}(\.\d{1,9})?)?$/;
const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?)$/;

/** Parses a DateTime input, or returns null when it is none of the three accepted forms. */
export function parseDateTimeInput(text: string): DateTimeInput | null {
  const dateOnly = DATE_ONLY.exec(text);
  if (dateOnly !== null) {
    return validDate(text) ? { kind: 'local', local: `${dateOnly[1]} 00:00:00` } : null;
  }
  const local = LOCAL.exec(text);
  if (local !== null) {
    if (!validDate(local[1] ?? '') || !validTime(`${local[2]}${local[3] ?? ''}`)) return null;
    const seconds = local[3] ?? ':00';
    return { kind: 'local', local: `${local[1]} ${local[2]}${seconds}` };
  }
  if (WITH_OFFSET.test(text)) {
    let normalized = text.replace(' ', 'T');
    normalized = normalized.replace(/([+-]\d{2})(\d{2})$/, '$1:$2').replace(/([+-]\d{2})$/, '$1:00');
    const ms = Date.parse(normalized);
    if (Number.isNaN(ms)) return null;
    return { kind: 'instant', iso: new Date(ms).toISOString() };
  }
  return null;
}

function validTime(time: string): boolean {
  const [h, m, sec] = time.split(':').map((part) => Number.parseFloat(part));
  return (h ?? 99) < 24 && (m ?? 99) < 60 && (sec ?? 0) < 60;
}

function validDate(date: string): boolean {
  const ms = Date.parse(`${date}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().startsWith(date);
}

/** True when the zone is an IANA (Joda-Time) id that both Intl and DuckDB's ICU know. */
export function isValidTimeZone(zone: string): boolean {
  if (!/^[A-Za-z0-9_+\-/]+$/.test(zone)) return false;
  try {
    // Shared: a formatter built per request holds ~17 KB of ICU memory that GC does not see.
    dateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * The instant a DateTime input stands for, in epoch ms: zoneless inputs are wall-clock times in
 * `zone`. A repeated wall time (clocks falling back) is its first occurrence; a skipped one
 * (clocks springing forward) is read with the offset before the gap.
 */
export function instantOf(input: DateTimeInput, zone: string): number {
  if (input.kind === 'instant') return Date.parse(input.iso);
  const wall = Date.parse(`${input.local.replace(' ', 'T')}Z`);
  const day = 86_400_000;
  const before = offsetAt(wall - day, zone);
  const after = offsetAt(wall + day, zone);
  const exact = [wall - before, wall - after].filter((t) => t + offsetAt(t, zone) === wall);
  return exact.length > 0 ? Math.min(...exact) : wall - before;
}

/**
 * A DateTime input as ISO 8601 with the offset `zone` has at that instant, the form result dates
 * take (`2026-11-01T00:00:00-04:00`); milliseconds only when there are some.
 *
 * @example isoWithOffset({ kind: 'local', local: '2026-11-01 00:00:00' }, 'America/New_York') // 2026-11-01T00:00:00-04:00
 */
export function isoWithOffset(input: DateTimeInput, zone: string): string {
  const instant = instantOf(input, zone);
  const offsetMinutes = Math.round(offsetAt(instant, zone) / 60_000);
  const wall = new Date(instant + offsetMinutes * 60_000).toISOString();
  const text = wall.endsWith('.000Z') ? wall.slice(0, 19) : wall.slice(0, 23);
  const abs = Math.abs(offsetMinutes);
  const hhmm = `${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${text}${offsetMinutes < 0 ? '-' : '+'}${hhmm}`;
}

/**
 * A DateTime input as a TIMESTAMPTZ SQL expression over bound values; inputs without a zone are
 * read in `zone`.
 *
 * @example dateTimeSql({ kind: 'local', local: '2026-11-01 00:00:00' }, 'UTC', params) // timezone($1, $2::TIMESTAMP)
 */
export function dateTimeSql(input: DateTimeInput, zone: string, params: SqlParams): string {
  if (input.kind === 'instant') return `${params.ref(input.iso.replace('T', ' ').replace('Z', '+00'))}::TIMESTAMPTZ`;
  return `timezone(${params.ref(zone)}, ${params.ref(input.local)}::TIMESTAMP)`;
}

/**
 * A Joda-Time pattern as a DuckDB strftime format. Letters outside the common set are kept
 * literally; text in single quotes is literal, and `''` is a quote.
 */
export function jodaToStrftime(pattern: string): string {
  const tokens: Readonly<Record<string, string>> = {
    yyyy: '%Y',
    YYYY: '%Y',
    yy: '%y',
    MMMM: '%B',
    MMM: '%b',
    MM: '%m',
    M: '%-m',
    dd: '%d',
    d: '%-d',
    HH: '%H',
    H: '%-H',
    hh: '%I',
    h: '%-I',
    mm: '%M',
    m: '%-M',
    ss: '%S',
    s: '%-S',
    SSS: '%g',
    EEEE: '%A',
    EEE: '%a',
    E: '%a',
    a: '%p',
    ww: '%V',
    DDD: '%j',
    Z: '%z',
    ZZ: '%z',
  };
  let out = '';
  let i = 0;
  while (i < pattern.length) {
    const ch = pattern[i] as string;
    if (ch === "'") {
      if (pattern[i + 1] === "'") {
        out += "'";
        i += 2;
        continue;
      }
      // Quoted literal text; '' inside it is one quote.
      i++;
      while (i < pattern.length) {
        if (pattern[i] === "'" && pattern[i + 1] === "'") {
          out += "'";
          i += 2;
        } else if (pattern[i] === "'") {
          i++;
          break;
        } else {
          out += pattern[i] === '%' ? '%%' : pattern[i];
          i++;
        }
      }
      continue;
    }
    if (/[A-Za-z]/.test(ch)) {
      let j = i;
      while (j < pattern.length && pattern[j] === ch) j++;
      const run = pattern.slice(i, j);
      out += tokens[run] ?? tokens[run.slice(0, 4)] ?? run;
      i = j;
      continue;
    }
    out += ch === '%' ? '%%' : ch;
    i++;
  }
  return out;
}
