/**
 * SQL that generates the fact table inside DuckDB: delivery rows (impressions, clicks, spend…)
 * for mobile and connected-TV campaigns, then conversion rows (installs, events, assisted) derived
 * from them with attribution detail. Hourly rows for the last 15 days, daily rows before.
 */
import { COUNTRIES, CTV_OS, GEO_PER_COUNTRY, PURCHASE_EVENT_INDEX, SOURCES } from './seedLists.js';

export interface FactsPlan {
  /** Delivery rows per day (daily slots); hourly slots get `hourlyRows` each. */
  rowsPerDay: number;
  hourlyRows: number;
  /** First daily slot, first hourly slot, end (exclusive): naive UTC timestamps `YYYY-MM-DD HH:MM:SS`. */
  dailyStart: string;
  hourlyStart: string;
  end: string;
  /** UTC date of "today" (`YYYY-MM-DD`). */
  today: string;
  mobileAds: number;
  ctvAds: number;
  mobileSites: number;
}

/** Planted anomalies, documented in docs/sandbox.md. */
export const ANOMALIES = {
  /** Campaign whose installs halve yesterday (UTC): its CPI doubles. */
  cpiSpikeCampaignId: 1001,
  /** Country whose impressions and spend collapse to 15% yesterday. */
  spendCollapseCountry: 'BR',
  /** Source (exchange) with no delivery yesterday and today: an outage. */
  outageSourceId: 6,
} as const;

const COUNTRY_COUNT = COUNTRIES.length;
const BR_INDEX = COUNTRIES.findIndex((c) => c.code === ANOMALIES.spendCollapseCountry);
const MOBILE_SOURCES = SOURCES.filter((s) => !s.ctv).length;

export function slotsSql(p: FactsPlan): string {
  return `
CREATE TABLE all_slots AS
SELECT row_number() OVER (ORDER BY ts)::BIGINT AS slot_id, ts, hourly,
  CASE WHEN hourly THEN ${p.hourlyRows} ELSE ${p.rowsPerDay} END AS n,
  date_diff('day', ts::DATE, DATE '${p.today}')::INTEGER AS days_ago,
  (CASE WHEN hourly THEN (${p.rowsPerDay}::DOUBLE / ${p.hourlyRows}) / 24 * (1 + 0.45 * sin(2 * pi() * (hour(ts) - 8) / 24)) ELSE 1 END)
    * [0.93, 0.95, 0.97, 1.0, 1.04, 1.12, 1.08][isodow(ts)]
    * (1 + 0.0006 * (400 - date_diff('day', ts::DATE, DATE '${p.today}'))) AS vol
FROM (
  SELECT ts, true AS hourly FROM range(TIMESTAMP '${p.hourlyStart}', TIMESTAMP '${p.end}', INTERVAL 1 HOUR) t(ts)
  UNION ALL
  SELECT ts, false AS hourly FROM range(TIMESTAMP '${p.dailyStart}', TIMESTAMP '${p.hourlyStart}', INTERVAL 1 DAY) t(ts)
);`;
}

/** Delivery rows of one channel; mobile and CTV differ only in what they draw from. */
export function deliverySql(p: FactsPlan, channel: 'MOBILE' | 'CTV'): string {
  const ctv = channel === 'CTV';
  const rows = ctv ? `greatest(1, n // 25)` : 'n';
  const salt = ctv ? 500 : 0;
  const adPick = ctv ? `floor(u(k, 1) * ${p.ctvAds})` : `floor(pow(u(k, 1), 1.5) * ${p.mobileAds})`;
  const sitePick = ctv ? `floor(u(k, 2) * 6)` : `floor(pow(u(k, 2), 1.8) * ${p.mobileSites})`;
  const device = ctv ? '3' : 'CASE WHEN u(k, 6) < 0.85 THEN 0 WHEN u(k, 6) < 0.97 THEN 1 ELSE 2 END';
  const source = ctv
    ? `${MOBILE_SOURCES + 1} + floor(u(k, 7) * 2)`
    : `1 + floor(pow(u(k, 7), 1.4) * ${MOBILE_SOURCES})`;
  const country = ctv
    ? 'CASE WHEN u(k, 3) < 0.85 THEN 0 ELSE floor(u(k, 4) * 4)::INTEGER END'
    : `CASE WHEN u(k, 3) < 0.7 THEN c.country_idx ELSE floor(pow(u(k, 4), 1.3) * ${COUNTRY_COUNT})::INTEGER END`;
  const ctvOs = ctv ? `1 + floor(u(k, 8) * ${CTV_OS.length})` : 'NULL';
  return `
INSERT INTO delivery
WITH r AS (
  SELECT slot_id, ts, days_ago, vol, unnest(range(${rows})) AS i FROM slots
), k AS (
  SELECT slot_id * 1000003 + i + ${salt} * 7919 AS k, ts, days_ago, vol FROM r
), picked AS (
  SELECT k, ts, days_ago, vol,
    (${adPick})::INTEGER AS ad_pick, (${sitePick})::INTEGER AS site_pick,
    floor(u(k, 5) * ${GEO_PER_COUNTRY})::INTEGER AS zip_pick,
    (${device})::UTINYINT AS device, (${source})::UTINYINT AS source_id
  FROM k
), joined AS (
  SELECT p.*, a.ad_id, a.group_id, a.campaign_id, a.ctr, a.cpm_factor, a.type AS ad_type,
    c.app_id, c.platform, c.tracker, c.type AS campaign_type, c.scale, ap.cvr, ap.epi, ap.arppu,
    s.site_id, so.cpm AS source_cpm, co.country_idx, co.cpm AS country_cpm
  FROM picked p
  JOIN ads a ON a.channel = '${channel}' AND a.chan_idx = p.ad_pick
  JOIN campaigns c ON c.campaign_id = a.campaign_id
  JOIN apps ap ON ap.app_id = c.app_id
  JOIN sites s ON s.ctv = ${ctv} AND s.site_idx = p.site_pick
  JOIN sources so ON so.source_id = p.source_id
  JOIN countries co ON co.country_idx = ${country.replaceAll('(k,', '(p.k,')}
  WHERE p.days_ago <= c.start_days_ago AND p.days_ago >= c.end_days_ago
    AND NOT (p.source_id = ${ANOMALIES.outageSourceId} AND p.days_ago <= 1)
), imps AS (
  SELECT *, floor(${ctv ? 600 : 900} * vol * scale * exp((u(k, 10) - 0.5) * 1.2)
      * CASE WHEN country_idx = ${BR_INDEX} AND days_ago = 1 THEN 0.15 ELSE 1 END + u(k, 11))::INTEGER AS impressions
  FROM joined
), clicks AS (
  SELECT *, floor(impressions * ctr * (0.7 + 0.6 * u(k, 12)) * CASE device WHEN 1 THEN 1.15 ELSE 1 END + u(k, 13))::INTEGER AS clicks
  FROM imps
)
SELECT k, ts, ${ctv ? 1 : 0}::UTINYINT AS channel, campaign_id, group_id, ad_id, site_id,
  (country_idx * ${GEO_PER_COUNTRY} + zip_pick)::SMALLINT AS geo_id, device, source_id, (${ctvOs})::UTINYINT AS ctv_os,
  impressions, clicks,
  floor(impressions * CASE WHEN ad_type IN ('video', 'rewarded_video', 'ctv_video') THEN 0.06 ELSE 0.01 END + u(k, 14))::INTEGER AS eviews,
  floor(clicks * 0.12 + u(k, 15))::INTEGER AS eclicks,
  CASE WHEN ad_type IN ('video', 'rewarded_video', 'ctv_video') THEN floor(impressions * 0.35 + u(k, 16)) ELSE 0 END::INTEGER AS simps,
  round(impressions / 1000.0 * country_cpm * source_cpm * cpm_factor * (0.8 + 0.4 * u(k, 17))
    * CASE campaign_type WHEN 'RTGT' THEN 1.3 ELSE 1 END, 4) AS spend,
  floor(impressions * (0.62 + 0.1 * u(k, 18)))::INTEGER AS uniq_imps,
  floor(clicks * 0.88 + u(k, 19))::INTEGER AS uniq_clicks,
  floor(impressions * (0.5 + 0.35 * u(k, 20)))::INTEGER AS viewable,
  (${ctv ? 'impressions * 0.0004' : 'clicks * cvr * (0.7 + 0.6 * u(k, 21)) + impressions * 0.00003'})
    * CASE WHEN campaign_id = ${ANOMALIES.cpiSpikeCampaignId} AND days_ago = 1 THEN 0.5 ELSE 1 END AS exp_inst,
  epi, app_id, platform, tracker, arppu
FROM clicks;`;
}

/** Conversion rows (installs, events, assisted ones) with attribution detail, from delivery rows. */
export function conversionsSql(): string {
  return `
CREATE TABLE conv AS
WITH x AS (
  SELECT d.k, d.ts, d.channel, d.campaign_id, d.group_id, d.ad_id, d.site_id, d.geo_id, d.device, d.source_id, d.ctv_os,
    d.app_id, d.platform, d.tracker, d.arppu, v.j, d.k * 7 + v.j AS kj,
    floor(CASE v.j WHEN 1 THEN d.exp_inst * 0.6 WHEN 2 THEN d.exp_inst * 0.4 WHEN 3 THEN d.exp_inst * d.epi
      WHEN 4 THEN d.exp_inst * 0.2 ELSE d.exp_inst * d.epi * 0.2 END + u(d.k, 200 + v.j))::INTEGER AS cnt
  FROM delivery d, (VALUES (1), (2), (3), (4), (5)) v(j)
  WHERE d.exp_inst > 0
), s AS (
  SELECT *, CASE WHEN j IN (1, 2, 4) THEN 1 ELSE 2 END AS kind,
    CASE WHEN channel = 1 THEN 1 WHEN tracker = 'SKAD' THEN CASE WHEN u(kj, 1) < 0.85 THEN 2 ELSE 1 END
      WHEN platform = 'IOS' AND u(kj, 1) < 0.1 THEN 2 ELSE 1 END AS attr_src
  FROM x WHERE cnt > 0
), t AS (
  SELECT *,
    CASE WHEN channel = 1 THEN 2 WHEN attr_src = 2 THEN CASE WHEN u(kj, 2) < 0.72 THEN 1 ELSE 2 END
      WHEN u(kj, 2) < 0.62 THEN 1 WHEN u(kj, 2) < 0.84 THEN 2 WHEN u(kj, 2) < 0.93 THEN 3 ELSE 4 END AS touch,
    CASE WHEN kind = 2 THEN CASE WHEN u(kj, 3) < 0.3 THEN 1 WHEN u(kj, 3) < 0.55 THEN 2 WHEN u(kj, 3) < 0.75 THEN 3
      WHEN u(kj, 3) < 0.85 THEN ${PURCHASE_EVENT_INDEX} ELSE 5 END END AS event_idx
  FROM s
)
SELECT ts, channel, kind::UTINYINT AS kind, campaign_id, group_id, ad_id, site_id, geo_id, device, source_id, ctv_os,
  touch::UTINYINT AS touch, attr_src::UTINYINT AS attr_src,
  (CASE WHEN attr_src = 1 THEN CASE WHEN u(kj, 4) < 0.82 THEN 1 ELSE 2 END END)::UTINYINT AS technique,
  (CASE WHEN attr_src = 2 THEN 2 WHEN platform = 'IOS' AND u(kj, 5) < 0.3 THEN 1 END)::UTINYINT AS skan_flag,
  CASE WHEN attr_src = 2 THEN u(kj, 6) < 0.65 END AS has_cv,
  CASE WHEN attr_src = 2 THEN u(kj, 7) < 0.08 END AS reinstall,
  j >= 4 AS assisted,
  (CASE WHEN touch IN (1, 4) THEN floor(pow(u(kj, 8), 3) * 168) ELSE floor(pow(u(kj, 8), 2) * 24) END)::USMALLINT AS h_touch,
  (CASE WHEN kind = 2 THEN floor(pow(u(kj, 9), 2.5) * 720) ELSE 0 END)::USMALLINT AS h_install,
  (CASE WHEN kind = 2 THEN app_id * 10 + event_idx END)::INTEGER AS event_id,
  cnt,
  (CASE WHEN kind = 2 THEN greatest(1, floor(cnt * 0.7 + u(kj, 10))) END)::INTEGER AS uniq,
  CASE WHEN event_idx = ${PURCHASE_EVENT_INDEX} THEN round(cnt * arppu * (0.5 + u(kj, 11)), 2) END AS revenue
FROM t;`;
}

export const DELIVERY_TABLE_SQL = `
CREATE TABLE delivery (k BIGINT, ts TIMESTAMP, channel UTINYINT, campaign_id INTEGER, group_id INTEGER, ad_id INTEGER,
  site_id INTEGER, geo_id SMALLINT, device UTINYINT, source_id UTINYINT, ctv_os UTINYINT, impressions INTEGER,
  clicks INTEGER, eviews INTEGER, eclicks INTEGER, simps INTEGER, spend DOUBLE, uniq_imps INTEGER, uniq_clicks INTEGER,
  viewable INTEGER, exp_inst DOUBLE, epi DOUBLE, app_id INTEGER, platform VARCHAR, tracker VARCHAR, arppu DOUBLE);`;

const KEYS = 'campaign_id, group_id, ad_id, site_id, geo_id, device, source_id, ctv_os';

/** The one fact table: delivery and conversion rows together (kind 0 / 1 install / 2 event). */
export const FACTS_TABLE_SQL = `
CREATE TABLE facts (ts TIMESTAMPTZ, channel UTINYINT, kind UTINYINT, campaign_id INTEGER, group_id INTEGER,
  ad_id INTEGER, site_id INTEGER, geo_id SMALLINT, device UTINYINT, source_id UTINYINT, ctv_os UTINYINT,
  impressions INTEGER, clicks INTEGER, eviews INTEGER, eclicks INTEGER, simps INTEGER, spend DOUBLE,
  uniq_imps INTEGER, uniq_clicks INTEGER, viewable INTEGER, touch UTINYINT, attr_src UTINYINT, technique UTINYINT,
  skan_flag UTINYINT, has_cv BOOLEAN, reinstall BOOLEAN, assisted BOOLEAN, h_touch USMALLINT, h_install USMALLINT,
  event_id INTEGER, cnt INTEGER, uniq INTEGER, revenue DOUBLE);`;

/** Slots of one chunk of time: generation runs chunk by chunk so memory stays bounded at any scale. */
export function chunkSlotsSql(from: string, to: string): string {
  return `CREATE OR REPLACE TABLE slots AS SELECT * FROM all_slots WHERE ts >= TIMESTAMP '${from}' AND ts < TIMESTAMP '${to}';
DELETE FROM delivery;`;
}

/**
 * Appends one chunk's delivery and conversion rows to the fact table, in time order and, within a
 * time, by every column: the rows' order (their rowids) is then the same on every run, whatever the
 * threads did, and so is a plant's rounding, which runs over them in that order (plantedFacts.ts).
 * Rows that tie on every column are the same row twice.
 */
export const INSERT_FACTS_SQL = `
INSERT INTO facts
SELECT * FROM (
  SELECT ts::TIMESTAMPTZ AS ts, channel, 0::UTINYINT AS kind, ${KEYS},
    impressions, clicks, eviews, eclicks, simps, spend, uniq_imps, uniq_clicks, viewable,
    NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
  FROM delivery
  UNION ALL
  SELECT ts::TIMESTAMPTZ, channel, kind, ${KEYS},
    NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
    touch, attr_src, technique, skan_flag, has_cv, reinstall, assisted, h_touch, h_install, event_id, cnt, uniq, revenue
  FROM conv
) ORDER BY ALL;
DROP TABLE conv;`;

export const CLEANUP_SQL = 'DROP TABLE delivery; DROP TABLE slots; DROP TABLE all_slots; DROP TABLE campaigns_raw;';
