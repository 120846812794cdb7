/** DateTime inputs (date only, local date-time, date-time with offset) and time zones, as SQL. */
import { dateTimeFormat } from '../../core/index.js';
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
