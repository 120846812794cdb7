/**
 * SQL that generates postbacks for `postbackShare`: install and event postbacks, organic and
 * attributed, with direct columns and a `params` map of extra keys.
 */
import { APP_EVENTS, COUNTRIES, sqlList } from './seedLists.js';

/** Direct columns of the postbacks table that postbackShare can read by name. */
export const POSTBACK_COLUMNS = [
  'event_name',
  'country',
  'os_version',
  'app_version',
  'media_source',
  'campaign_id',
  'agg_value_usd',
] as const;

/** Keys held in the `params` map column (present on some postbacks only). */
export const POSTBACK_MAP_KEYS = ['currency', 'level', 'content_type', 'payment_method', 'conversion_value', 'channel'];

export function postbacksSql(opts: { perDay: number; days: number; today: string; apps: number }): string {
  const eventNames = APP_EVENTS.map((e) => e.name);
  const countries = COUNTRIES.map((c) => c.code);
  return `
CREATE TABLE postbacks AS
WITH r AS (
  SELECT d, unnest(range(${opts.perDay})) AS i
  FROM range(1, ${opts.days + 1}) t(d)
), k AS (
  SELECT (d * 1000003 + i) * 13 + 5 AS k, d, i FROM r
), b AS (
  SELECT k,
    (TIMESTAMP '${opts.today} 00:00:00' - to_days(d::INTEGER) + to_seconds(floor(u(k, 1) * 86400)::BIGINT))::TIMESTAMPTZ AS ts,
    (101 + floor(pow(u(k, 2), 1.5) * ${opts.apps}))::INTEGER AS app_id,
    CASE WHEN u(k, 3) < 0.35 THEN 'INSTALLS' ELSE 'EVENTS' END AS track,
    u(k, 4) < 0.3 AS organic,
    floor(u(k, 5) * 100) AS ev
  FROM k
)
SELECT ts, app_id, track, organic,
  CASE WHEN track = 'INSTALLS' THEN 'install'
    ELSE ${sqlList(eventNames)}[CASE WHEN ev < 30 THEN 1 WHEN ev < 55 THEN 2 WHEN ev < 75 THEN 3 WHEN ev < 85 THEN 4 ELSE 5 END] END AS event_name,
  pick(${sqlList(countries)}, k, 6) AS country,
  CASE WHEN app_id % 2 = 1 THEN pick(['17.5', '17.6', '18.0', '18.1', '18.2'], k, 7) ELSE pick(['12', '13', '14', '15'], k, 7) END AS os_version,
  pick(['3.2.0', '3.2.1', '3.3.0', '3.4.0'], k, 8) AS app_version,
  CASE WHEN organic THEN 'organic' ELSE pick(['pivotbot_int', 'pivotbot_int', 'pivotbot_int', 'googleadwords_int', 'Facebook Ads'], k, 9) END AS media_source,
  CASE WHEN organic THEN NULL ELSE 1001 + (app_id - 101) * 3 + floor(u(k, 10) * 3)::INTEGER END AS campaign_id,
  CASE WHEN track = 'EVENTS' AND ev >= 75 AND ev < 85 THEN round(0.99 + pow(u(k, 11), 2) * 49, 2) END AS agg_value_usd,
  MAP {
    'currency': CASE WHEN track = 'EVENTS' AND ev >= 75 AND ev < 85 THEN pick(['USD', 'USD', 'EUR', 'BRL'], k, 12) END,
    'level': CASE WHEN track = 'EVENTS' AND ev >= 85 THEN (1 + floor(pow(u(k, 13), 2) * 50)::INTEGER)::VARCHAR END,
    'content_type': CASE WHEN track = 'EVENTS' AND ev >= 55 AND ev < 85 THEN pick(['coins', 'bundle', 'subscription', 'skin'], k, 14) END,
    'payment_method': CASE WHEN track = 'EVENTS' AND ev >= 75 AND ev < 85 THEN pick(['card', 'paypal', 'store'], k, 15) END,
    'conversion_value': CASE WHEN track = 'INSTALLS' AND app_id % 2 = 1 THEN floor(u(k, 16) * 64)::INTEGER::VARCHAR END,
    'channel': CASE WHEN NOT organic THEN pick(['rewarded', 'interstitial', 'banner', 'video'], k, 17) END
  } AS params
FROM b
ORDER BY ts;`;
}
