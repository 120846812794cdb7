/**
 * Number and date formatting by the catalog's units: the one place that decides how a value reads
 * in a message, a table, a chart tick or the HTML preview. Null, missing and non-finite values
 * read as "—".
 */
import type { CellValue, Polarity } from '../reporting/index.js';
import type { Delta, ViewColumn } from '../view/index.js';

/** What a column holds, as far as formatting goes. */
export type FormatUnit = ViewColumn['unit'];

/** Shown for null, missing, NaN and infinite values. */
export const NULL_TEXT = '—';
/** A true minus sign reads better than a hyphen next to a plus. */
const MINUS = '−';

const cache = new Map<string, Intl.NumberFormat>();
function nf(key: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  let f = cache.get(key);
  if (!f) {
    f = new Intl.NumberFormat('en-US', options);
    cache.set(key, f);
  }
  return f;
}

/** A cell as a number: Long values arrive as exact strings; anything else non-numeric is null. */
export function toNumber(value: CellValue | undefined): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(value)) return Number(value);
  return null;
}

/** Swaps a leading hyphen for a true minus sign. */
function signed(text: string): string {
  return text.startsWith('-') ? `${MINUS}${text.slice(1)}` : text;
}

/** `12,345,678` from an exact integer string, so Longs beyond 2^53 keep every digit. */
function groupDigits(digits: string): string {
  const negative = digits.startsWith('-');
  const body = negative ? digits.slice(1) : digits;
  const grouped = body.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return negative ? `${MINUS}${grouped}` : grouped;
}

/** Compact magnitude: `1.2K`, `3.4M`, `12B`; below 1,000 up to two decimals. */
export function formatCompactNumber(n: number): string {
  if (Math.abs(n) < 1000) return signed(nf('small', { maximumFractionDigits: 2 }).format(n));
  return signed(nf('compact', { notation: 'compact', maximumFractionDigits: 1 }).format(n));
}

function currency(n: number, compact: boolean): string {
  const abs = Math.abs(n);
  if (compact && abs >= 1000) {
    return signed(
      nf('usd-compact', {
        style: 'currency',
        currency: 'USD',
        notation: 'compact',
        minimumFractionDigits: 0,
        maximumFractionDigits: 1,
      }).format(n),
    );
  }
  // Sub-cent costs (CPM of cheap inventory, per-impression costs) keep three significant digits.
  if (abs > 0 && abs < 0.01) {
    return signed(nf('usd-tiny', { style: 'currency', currency: 'USD', maximumSignificantDigits: 3 }).format(n));
  }
  if (compact && Number.isInteger(n))
    return signed(nf('usd-int', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }).format(n));
  return signed(
    nf('usd', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n),
  );
}

function percentText(percentValue: number): string {
  const abs = Math.abs(percentValue);
  const digits = abs !== 0 && abs < 0.1 ? 2 : 1;
  const f = nf(`pct${digits}`, { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return `${signed(f.format(percentValue))}%`;
}

export interface FormatOptions {
  /** Short forms for headlines and chart ticks: `$1.2K`, `3.4M`. */
  compact?: boolean;
}

/**
 * A value as a person reads it, by unit:
 * currency `$1,234.56` (compact `$1.2K`), count `1,234,567` (compact `1.2M`), ratio (a 0..1
 * fraction) `12.3%`, percent (already in percent) `12.3%`, per_mille `2.41‰`, score `3.5`,
 * time `2026-11-19` or `2026-11-19 14:00`, text as is; null as "—".
 *
 * @example formatValue(1234.5, 'currency') // '$1,234.50'
 */
export function formatValue(value: CellValue | undefined, unit: FormatUnit, options: FormatOptions = {}): string {
  if (value === null || value === undefined) return NULL_TEXT;
  if (unit === 'text') return typeof value === 'boolean' ? (value ? 'yes' : 'no') : String(value);
  if (unit === 'time') return typeof value === 'string' ? formatTime(value) : String(value);
  const compact = options.compact ?? false;
  if (unit === 'count' && typeof value === 'string' && /^-?\d+$/.test(value) && !compact) return groupDigits(value);
  const n = toNumber(value);
  if (n === null) return typeof value === 'string' && value !== '' ? value : NULL_TEXT;
  switch (unit) {
    case 'currency':
      return currency(n, compact);
    case 'count':
      if (compact) return formatCompactNumber(n);
      return signed(
        nf(Number.isInteger(n) ? 'int' : 'dec1', { maximumFractionDigits: Math.abs(n) < 100 ? 2 : 0 }).format(n),
      );
    case 'ratio':
      return percentText(n * 100);
    case 'percent':
      return percentText(n);
    case 'per_mille':
      return `${signed(nf('pm', { maximumFractionDigits: 2 }).format(n))}‰`;
    case 'score':
      return compact ? formatCompactNumber(n) : signed(nf('score', { maximumFractionDigits: 2 }).format(n));
  }
}

/**
 * A date-time from the service as its wall-clock reading (the offset it carries is the report's
 * time zone): midnight reads as a date, anything else as date and time.
 *
 * @example formatTime('2026-11-19T00:00:00+01:00') // '2026-11-19'
 */
export function formatTime(value: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2})(?::\d{2}(?:\.\d+)?)?)?/.exec(value);
  if (!m) return value;
  const time = m[2];
  return time === undefined || time === '00:00' ? (m[1] as string) : `${m[1]} ${time}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A short axis label for a time value: `19 Nov`, or `19 Nov 14:00` for hourly data. */
export function formatTimeShort(value: CellValue | undefined): string {
  if (typeof value !== 'string') return value === null || value === undefined ? NULL_TEXT : String(value);
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}:\d{2}))?/.exec(value);
  if (!m) return value;
  const label = `${Number(m[3])} ${MONTHS[Number(m[2]) - 1] ?? m[2]}`;
  return m[4] === undefined || m[4] === '00:00' ? label : `${label} ${m[4]}`;
}

/**
 * A change as a signed relative percentage (`+12.3%`, `−4.0%`); where the base was 0 the
 * relative change is undefined, so the absolute change is shown in the metric's unit instead.
 *
 * @example formatDelta({ previous: 100, absolute: 12.3, percent: 0.123 }, 'count') // '+12.3%'
 */
export function formatDelta(delta: Delta | undefined, unit: FormatUnit): string {
  if (!delta) return NULL_TEXT;
  if (delta.percent !== null && Number.isFinite(delta.percent)) {
    const text = percentText(delta.percent * 100);
    return delta.percent > 0 ? `+${text}` : text;
  }
  if (delta.absolute !== null && Number.isFinite(delta.absolute)) {
    const text = formatValue(delta.absolute, unit, { compact: true });
    return delta.absolute > 0 ? `+${text}` : text;
  }
  return NULL_TEXT;
}

export type Direction = 'up' | 'down' | 'flat';
/** Whether a change is good news, given the metric's polarity. */
export type Tone = 'good' | 'bad' | 'neutral';

/** Changes smaller than this (relative) count as flat: 0.05 % is noise, not news. */
const FLAT_BELOW = 0.0005;

/**
 * Which way a delta points and whether that is good news: a rising CPI (lower_is_better) is bad,
 * rising installs are good, spend (neutral) is neither.
 *
 * @example deltaTone({ previous: 2, absolute: 0.5, percent: 0.25 }, 'lower_is_better') // { direction: 'up', tone: 'bad' }
 */
export function deltaTone(delta: Delta | undefined, polarity: Polarity): { direction: Direction; tone: Tone } {
  const change = delta?.percent ?? (delta?.absolute === null || delta?.absolute === undefined ? null : delta.absolute);
  if (change === null || !Number.isFinite(change) || Math.abs(change) < (delta?.percent == null ? 1e-12 : FLAT_BELOW)) {
    return { direction: 'flat', tone: 'neutral' };
  }
  const direction: Direction = change > 0 ? 'up' : 'down';
  if (polarity === 'neutral') return { direction, tone: 'neutral' };
  const good = (direction === 'up') === (polarity === 'higher_is_better');
  return { direction, tone: good ? 'good' : 'bad' };
}

/** The arrow character for a direction. */
export function arrowFor(direction: Direction): string {
  return direction === 'up' ? '▲' : direction === 'down' ? '▼' : '▬';
}
