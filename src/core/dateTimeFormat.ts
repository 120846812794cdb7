/**
 * Shared `Intl.DateTimeFormat`s. Each one built holds about 17 KB of ICU memory (date-format
 * symbols, calendar, pattern) outside the V8 heap, which V8 does not count: building one per
 * formatted date never makes the garbage collector hurry, and the bot's resident memory grew by
 * ~500 MB over a digest burst where `/pivot schedule` built one per listed line (31 400 in a 30 s
 * run of bench/scheduler; a full GC gave none of it back). Formatters are immutable, so one per
 * locale and options serves every caller.
 */

/** Formatters kept at most; past this the cache starts over (options come from code, so it stays small). */
const MAX_FORMATTERS = 500;
const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * The formatter for `locale` and `options`, built once. A zone the runtime does not know throws
 * the same RangeError as `new Intl.DateTimeFormat` and caches nothing.
 *
 * @example dateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit' }).format(date)
 */
export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}\u0000${JSON.stringify(options, Object.keys(options).sort())}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    if (formatters.size >= MAX_FORMATTERS) formatters.clear();
    formatters.set(key, format);
  }
  return format;
}
