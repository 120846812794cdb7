import { didYouMean, suggest } from '../core/index.js';
import { canonicalTimeZone, isTimeZone } from './zonedTime.js';

let names: readonly string[] | undefined;

/** Every IANA zone id the runtime knows, plus UTC (which `supportedValuesOf` leaves out). */
function zoneNames(): readonly string[] {
  names ??= ['UTC', ...Intl.supportedValuesOf('timeZone')];
  return names;
}

/**
 * Why `zone` is not a time zone, with suggestions; `undefined` when it is one.
 *
 * @example timeZoneProblem('Europe/Berln')
 * // { message: '"Europe/Berln" is not an IANA time zone (like Europe/Berlin). Did you mean "Europe/Berlin"?', suggestions: ['Europe/Berlin'] }
 */
export function timeZoneProblem(zone: string): { message: string; suggestions: string[] } | undefined {
  if (isTimeZone(zone)) return undefined;
  // Compare the city part too: people type "Sao Paulo" or "berlin".
  const typed = zone.trim().replace(/\s+/g, '_');
  const byCity = new Map(zoneNames().map((z) => [z.slice(z.lastIndexOf('/') + 1), z]));
  const suggestions = [
    ...new Set([
      ...suggest(typed, zoneNames()),
      ...suggest(typed, byCity.keys()).flatMap((city) => byCity.get(city) ?? []),
    ]),
  ].slice(0, 3);
  return {
    message: `"${zone}" is not an IANA time zone (like Europe/Berlin or UTC).${didYouMean(suggestions)}`,
    suggestions,
  };
}

/**
 * A zone as it should be shown: as written when it is valid and cased (`Asia/Kolkata` stays, though
 * this runtime's ICU calls it `Asia/Calcutta`), else the runtime's spelling of what was typed in
 * any case (`europe/berlin` → `Europe/Berlin`); `undefined` when it is not a zone.
 *
 * @example normalizeTimeZone('america/sao_paulo') // 'America/Sao_Paulo'
 */
export function normalizeTimeZone(zone: string): string | undefined {
  const typed = zone.trim();
  if (!isTimeZone(typed)) return undefined;
  const lower = typed.toLowerCase();
  const listed = zoneNames().find((z) => z.toLowerCase() === lower);
  if (listed) return listed;
  if (typed !== lower) return typed;
  const titled = lower.replace(/(^|[/_-])([a-z])/g, (_, sep: string, c: string) => sep + c.toUpperCase());
  return isTimeZone(titled) ? titled : (canonicalTimeZone(typed) ?? typed);
}
