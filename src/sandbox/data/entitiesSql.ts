/**
 * SQL that builds the dimension tables (advertisers → apps → campaigns → groups → ads, sites,
 * sources, geography) from the seed lists. Deterministic: every choice is a hash of ids and the seed.
 */
import {
  AD_TYPES,
  APP_CATEGORIES,
  APP_TITLES,
  COMPANY_WORDS_A,
  COMPANY_WORDS_B,
  COUNTRIES,
  CTV_CHANNELS,
  GEO_PER_COUNTRY,
  PURCHASE_EVENT_INDEX,
  REGISTRATION_EVENT_INDEX,
  SITE_CATEGORIES,
  SITE_NOUNS,
  SITE_WORDS,
  SOURCES,
  sqlList,
  sqlString,
} from './seedLists.js';

export interface EntityCounts {
  advertisers: number;
  sites: number;
  ctvCampaigns: number;
}

/** Uniform [0,1) from a hash of two keys and the seed; `pick` draws from a list the same way. */
export function macrosSql(seed: number): string {
  return `
SET TimeZone = 'UTC';
CREATE OR REPLACE MACRO u(a, b) AS ((hash(a, b, ${seed}::BIGINT) % 1000003)::DOUBLE / 1000003.0);
CREATE OR REPLACE MACRO pick(lst, a, b) AS lst[1 + floor(u(a, b) * len(lst))::INTEGER];
`;
}

function geoValues(): string {
  const rows: string[] = [];
  COUNTRIES.forEach((country, ci) => {
    let j = 0;
    for (const region of country.regions) {
      for (const city of region.cities) {
        for (let z = 0; z < 2; z++) {
          const zip =
            country.code === 'US'
              ? String(10001 + ((ci * 7919 + j * 104729) % 89000))
              : `${country.code}-${String(1000 + j * 1117 + z * 37)}`;
          const dma = city.dma === null ? 'NULL' : sqlString(city.dma);
          rows.push(
            `(${ci * GEO_PER_COUNTRY + j}, ${ci}, ${sqlString(region.name)}, ${sqlString(city.name)}, ${dma}, ${sqlString(zip)})`,
          );
          j++;
        }
      }
    }
  });
  return rows.join(',\n');
}

export function entitiesSql(counts: EntityCounts, seed: number): string {
  const countries = COUNTRIES.map(
    (c, i) => `(${i}, ${sqlString(c.code)}, ${sqlString(c.name)}, ${c.id}, ${c.cpm}, ${c.volume})`,
  ).join(', ');
  const sources = SOURCES.map((s, i) => `(${i + 1}, ${sqlString(s.name)}, ${s.cpm}, ${s.ctv})`).join(', ');
  const adTypes = AD_TYPES.map((t, i) => `(${i}, ${sqlString(t.type)}, ${sqlList(t.sizes)}, ${t.ctr}, ${t.cpm})`).join(
    ', ',
  );
  const siteCats = SITE_CATEGORIES.map(([c, subs]) => `{'cat': ${sqlString(c)}, 'subs': ${sqlList(subs)}}`).join(', ');
  const nAdv = counts.advertisers;
  const nCountries = COUNTRIES.length;
  return `
CREATE TABLE countries AS SELECT * FROM (VALUES ${countries}) t(country_idx, code, name, country_num, cpm, volume);
CREATE TABLE geo AS SELECT geo_id::SMALLINT AS geo_id, country_idx::INTEGER AS country_idx, region, city, dma, zip
  FROM (VALUES ${geoValues()}) t(geo_id, country_idx, region, city, dma, zip);
CREATE TABLE sources AS SELECT source_id::UTINYINT AS source_id, name, cpm, ctv
  FROM (VALUES ${sources}) t(source_id, name, cpm, ctv);
CREATE TABLE ad_types AS SELECT * FROM (VALUES ${adTypes}) t(type_idx, type, sizes, ctr, cpm);

CREATE TABLE advertisers AS
SELECT (11 + i)::INTEGER AS advertiser_id, i AS adv_idx,
  ${sqlList(COMPANY_WORDS_A)}[1 + ((i * 37 + ${seed}) % 400) // 20] || ' ' ||
  ${sqlList(COMPANY_WORDS_B)}[1 + ((i * 37 + ${seed}) % 400) % 20] AS name,
  CASE WHEN u(i, 2) < 0.45 THEN 0 ELSE floor(pow(u(i, 3), 1.4) * ${nCountries})::INTEGER END AS country_idx,
  pick(['Inc.', 'Ltd', 'GmbH', 'S.A.', 'LLC'], i, 4) AS entity_suffix
FROM range(${nAdv}) r(i);

CREATE TABLE apps AS
SELECT (101 + i)::INTEGER AS app_id, i AS app_idx, a.advertiser_id,
  CASE WHEN i % 2 = 0 THEN 'IOS' ELSE 'ANDROID' END AS platform,
  ${sqlList(APP_TITLES)}[1 + ((a.adv_idx * 7 + ${seed}) % ${APP_TITLES.length})] AS name,
  CASE WHEN i % 2 = 0 THEN 'id' || (1000000000 + hash(i, ${seed}) % 899999999)::VARCHAR
       ELSE 'com.' || lower(replace(a.name, ' ', '')) || '.' ||
            lower(replace(${sqlList(APP_TITLES)}[1 + ((a.adv_idx * 7 + ${seed}) % ${APP_TITLES.length})], ' ', '')) END AS bundle,
  ${sqlList(APP_CATEGORIES)}[1 + ((a.adv_idx * 3 + ${seed}) % ${APP_CATEGORIES.length})] AS category,
  0.03 + u(i, 11) * 0.06 AS cvr, 0.8 + u(i, 12) * 1.7 AS epi, 4 + u(i, 13) * 18 AS arppu
FROM range(${nAdv * 2}) r(i) JOIN advertisers a ON a.adv_idx = i // 2;

CREATE TABLE campaigns_raw AS
SELECT i, (1001 + i)::INTEGER AS campaign_id, p.app_id, p.advertiser_id, p.platform, p.name AS app_name, 'MOBILE' AS channel,
  CASE WHEN i = 0 OR u(i, 21) < 0.75 THEN 'UA' ELSE 'RTGT' END AS type,
  CASE WHEN i = 0 OR p.platform = 'ANDROID' OR u(i, 22) < 0.5 THEN 'MMP' ELSE 'SKAD' END AS tracker,
  CASE WHEN i = 0 THEN 'CPI' WHEN u(i, 23) < 0.4 THEN 'CPI' WHEN u(i, 23) < 0.7 THEN 'CPA'
       WHEN u(i, 23) < 0.9 THEN 'ROAS' ELSE 'CPC' END AS goal_type,
  CASE WHEN i = 0 THEN 0 WHEN u(i, 24) < 0.5 THEN (SELECT country_idx FROM advertisers WHERE advertiser_id = p.advertiser_id)
       ELSE floor(pow(u(i, 25), 1.3) * ${nCountries})::INTEGER END AS country_idx,
  CASE WHEN i = 0 OR u(i, 26) < 0.8 THEN 'ACTIVE' WHEN u(i, 26) < 0.92 THEN 'PAUSED' ELSE 'ARCHIVED' END AS status,
  CASE WHEN i = 0 OR u(i, 27) < 0.75 THEN 9999 ELSE 20 + floor(u(i, 28) * 300)::INTEGER END AS start_days_ago,
  CASE WHEN i = 0 THEN 2.2 ELSE 0.3 + pow(u(i, 29), 2) * 2.5 END AS scale,
  u(i, 30) AS uv, u(i, 31) AS uw
FROM range(${nAdv * 6}) r(i) JOIN apps p ON p.app_idx = i // 3;

CREATE TABLE campaigns AS
SELECT campaign_id, app_id, advertiser_id, platform, channel, type, tracker, goal_type, status,
  status = 'ARCHIVED' AS archived, c.country_idx, k.code AS country_code,
  app_name || ' · ' || CASE platform WHEN 'IOS' THEN 'iOS' ELSE 'Android' END || ' · ' || type || ' · ' || k.code ||
    ' · ' || goal_type || ' #' || (i % 3 + 1) AS name,
  CASE WHEN u(i, 40) < 0.5 THEN 'cp-' || (i * 31 % 997) END AS parameter,
  round(CASE goal_type WHEN 'CPI' THEN 1.5 + uv * 6 WHEN 'CPA' THEN 6 + uv * 30
    WHEN 'ROAS' THEN 0.1 + uv * 0.4 ELSE 0.15 + uv * 0.6 END, 2) AS goal_value,
  CASE goal_type WHEN 'CPA' THEN app_id * 10 + CASE WHEN uw < 0.5 THEN ${REGISTRATION_EVENT_INDEX} ELSE ${PURCHASE_EVENT_INDEX} END
    WHEN 'ROAS' THEN app_id * 10 + ${PURCHASE_EVENT_INDEX} END AS goal_event_id,
  CASE goal_type WHEN 'CPC' THEN 'CPI' WHEN 'ROAS' THEN CASE WHEN uw < 0.5 THEN 'ROAS' ELSE 'CPA' END ELSE goal_type END AS contr_goal_type,
  tracker AS contr_source,
  CASE WHEN u(i, 41) < 0.5 THEN '7d' WHEN u(i, 41) < 0.8 THEN '1d' ELSE '30d' END AS contr_window,
  start_days_ago,
  CASE status WHEN 'ACTIVE' THEN 0 WHEN 'PAUSED' THEN 3 + floor(u(i, 42) * 18)::INTEGER
    ELSE 60 + floor(u(i, 43) * 90)::INTEGER END AS end_days_ago,
  scale, a.name || ' ' || a.entity_suffix AS billing_entity,
  CASE WHEN tracker = 'SKAD' THEN 1 + i % 100 END AS skad_id,
  CASE WHEN tracker = 'SKAD' THEN CASE WHEN u(i, 44) < 0.6 THEN '4.0' ELSE '3.0' END END AS skad_version,
  CASE WHEN tracker = 'SKAD' THEN pick([24, 48, 72], i, 45) END AS skad_cw,
  CASE WHEN tracker = 'SKAD' THEN floor(u(i, 46) * 4)::INTEGER END AS skad_anon,
  uv
FROM campaigns_raw c JOIN countries k USING (country_idx) JOIN advertisers a USING (advertiser_id);

-- Connected-TV campaigns (CPI, US-centred) for appendCtvData / campaignChannel.
INSERT INTO campaigns
SELECT (9001 + i)::INTEGER, p.app_id, p.advertiser_id, p.platform, 'CTV', 'UA', 'MMP', 'CPI', 'ACTIVE', false, 0, 'US',
  p.name || ' · CTV · US · CPI', NULL, round(4 + u(i, 50) * 6, 2), NULL, 'CPI', 'MMP', '7d', 9999, 0,
  0.8 + u(i, 51), a.name || ' ' || a.entity_suffix, NULL, NULL, NULL, NULL, u(i, 52)
FROM range(${counts.ctvCampaigns}) r(i) JOIN apps p ON p.app_idx = i * 2 JOIN advertisers a USING (advertiser_id);

ALTER TABLE campaigns ADD COLUMN contr_goal_value DOUBLE;
ALTER TABLE campaigns ADD COLUMN contr_goal_event_id INTEGER;
UPDATE campaigns SET
  contr_goal_value = CASE WHEN contr_goal_type = goal_type THEN round(goal_value * (1.1 + uv * 0.2), 2)
    WHEN contr_goal_type = 'CPI' THEN round(3 + uv * 4, 2) ELSE round(20 + uv * 40, 2) END,
  contr_goal_event_id = CASE WHEN contr_goal_type IN ('CPA', 'ROAS') THEN app_id * 10 + ${PURCHASE_EVENT_INDEX} END;

CREATE TABLE groups AS
SELECT (20001 + i)::INTEGER AS group_id, c.campaign_id, c.channel,
  c.name || ' · ' || pick(['Prospecting', 'Lookalike', 'Broad', 'High value', 'Lapsed users', 'Retargeting 7d'], i, 60) AS name,
  CASE WHEN c.type = 'RTGT' AND u(i, 61) < 0.4 THEN 'DPA' ELSE 'REGULAR' END AS group_type,
  CASE WHEN u(i, 62) < 0.2 THEN 'AB_TEST' ELSE 'REGULAR' END AS experiment,
  pick(['prospecting', 'lookalike', 'broad', 'retargeting'], i, 63) AS subtype,
  CASE WHEN u(i, 64) < 0.1 THEN pick(['prospecting', 'lookalike', 'broad', 'retargeting'], i, 65) END AS subtype_changed,
  'tpl-' || (100 + floor(u(i, 66) * 40)::INTEGER) AS template,
  CASE WHEN u(i, 67) < 0.4 THEN 'gp-' || (i * 17 % 991) END AS parameter,
  row_number() OVER (PARTITION BY c.channel ORDER BY i) - 1 AS chan_idx
FROM range((SELECT count(*) FROM campaigns) * 2) r(i)
JOIN (SELECT *, row_number() OVER (ORDER BY campaign_id) - 1 AS cidx FROM campaigns) c ON c.cidx = i // 2;

CREATE TABLE ads AS
SELECT (300001 + i)::INTEGER AS ad_id, g.group_id, g.campaign_id, g.channel,
  CASE WHEN g.channel = 'CTV' THEN 'ctv_video' ELSE t.type END AS type,
  CASE WHEN g.channel = 'CTV' THEN '1920x1080' ELSE t.sizes[1 + floor(u(i, 71) * len(t.sizes))::INTEGER] END AS size,
  CASE WHEN g.channel = 'CTV' THEN 0.0 ELSE t.ctr END AS ctr,
  CASE WHEN g.channel = 'CTV' THEN 1.0 ELSE t.cpm END AS cpm_factor,
  CASE WHEN u(i, 72) < 0.3 THEN 'ap-' || (i * 13 % 983) END AS parameter,
  (t.type = 'rewarded_video')::INTEGER AS rewarded,
  (u(i, 73) < 0.25)::INTEGER AS skoverlay, (u(i, 74) < 0.5)::INTEGER AS persistent_cta,
  (u(i, 75) < 0.15)::INTEGER AS triple_page, (u(i, 76) < 0.2)::INTEGER AS inline_install,
  (u(i, 77) < 0.3)::INTEGER AS autostore,
  (t.type IN ('video', 'rewarded_video') AND u(i, 78) < 0.6 OR g.channel = 'CTV')::INTEGER AS skippable,
  CASE WHEN t.type IN ('video', 'rewarded_video') OR g.channel = 'CTV' THEN pick(['first_quartile', 'midpoint', 'complete'], i, 79) END AS phase,
  row_number() OVER (PARTITION BY g.channel ORDER BY i) - 1 AS chan_idx
FROM range((SELECT count(*) FROM groups) * 3) r(i)
JOIN (SELECT *, row_number() OVER (ORDER BY group_id) - 1 AS gidx FROM groups) g ON g.gidx = i // 3
JOIN ad_types t ON t.type_idx = floor(u(i, 70) * ${AD_TYPES.length})::INTEGER;
ALTER TABLE ads ADD COLUMN name VARCHAR;
UPDATE ads SET name = type || ' ' || size || ' v' || (ad_id % 3 + 1);

CREATE TABLE sites AS
WITH cats AS (SELECT [${siteCats}] AS l)
SELECT (1 + i)::INTEGER AS site_id, false AS ctv, i AS site_idx,
  ${sqlList(SITE_WORDS)}[1 + (i * 7 + ${seed}) % ${SITE_WORDS.length}] || ' ' ||
  ${sqlList(SITE_NOUNS)}[1 + ((i * 7 + ${seed}) // ${SITE_WORDS.length}) % ${SITE_NOUNS.length}] ||
  CASE WHEN i >= ${SITE_WORDS.length * SITE_NOUNS.length} THEN ' ' || (i // ${SITE_WORDS.length * SITE_NOUNS.length} + 1) ELSE '' END AS name,
  CASE WHEN u(i, 80) < 0.5 THEN 'id' || (1100000000 + hash(i, 81, ${seed}) % 800000000)::VARCHAR
       ELSE 'com.pub' || (i * 7919 % 100003) || '.app' END AS bundle,
  pick((SELECT l FROM cats), i, 82) AS c,
  pick(['none', 'none', 'none', 'none', 'none', 'vpn', 'datacenter', 'residential'], i, 84) AS proxy_type
FROM range(${counts.sites}) r(i);
ALTER TABLE sites ADD COLUMN category VARCHAR;
ALTER TABLE sites ADD COLUMN subcategory VARCHAR;
UPDATE sites SET category = struct_extract(c, 'cat'),
  subcategory = struct_extract(c, 'subs')[1 + floor(u(site_id, 83) * len(struct_extract(c, 'subs')))::INTEGER];
ALTER TABLE sites DROP COLUMN c;
INSERT INTO sites (site_id, ctv, site_idx, name, bundle, proxy_type, category, subcategory)
SELECT (100001 + i)::INTEGER, true, i, l[i + 1], 'ctv.' || lower(replace(l[i + 1], ' ', '')), 'none', 'Entertainment', 'Streaming'
FROM range(${CTV_CHANNELS.length}) r(i), (SELECT ${sqlList(CTV_CHANNELS)} AS l);
`;
}
