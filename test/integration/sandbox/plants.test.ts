/**
 * Planted causes on the real sandbox, over HTTP: `PUT /sandbox/plants` multiplies a metric on a
 * segment's facts, and every rollup (any dimension, hourly or daily, totals, ratios) shows it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { ConfigError } from '../../../src/core/index.js';
import { seededRandom } from '../../../src/sandbox/faults.js';
import { type PlantInput, runSandboxCommand, startSandbox } from '../../../src/sandbox/index.js';
import { plantsRoute } from '../../../src/sandbox/plantsRoute.js';
import { useSandbox, utcDay } from '../../support/sandboxClient.js';

const NOW = new Date('2026-11-21T05:30:00Z');
const YESTERDAY = '2026-11-20';
const TODAY = '2026-11-21';
const DAY_BEFORE = '2026-11-19';

const t = useSandbox({ scale: 'small', seed: 1, now: NOW });

type Row = Record<string, string | number | null>;
interface PivotData {
  pivot: { results: Row[]; totals: Row };
}

const METRICS = `impressions clicks spend installs events eventValue uniqueEvents installsCpi ctr sourceViewa
  mmp: installs(attrSource: MMP) skad: installs(attrSource: SKAD)`;

async function pivot(
  dimensions: string,
  options: { from?: string; to?: string; filter?: Record<string, unknown>; metrics?: string } = {},
): Promise<PivotData['pivot']> {
  const data = await t.client.data<PivotData>(
    `query($f: Filter, $from: DateTime!, $to: DateTime!) {
      pivot(from: $from, to: $to, filter: $f) { results { ${dimensions} ${options.metrics ?? METRICS} } totals { ${options.metrics ?? METRICS} } } }`,
    { f: options.filter ?? null, from: options.from ?? YESTERDAY, to: options.to ?? TODAY },
  );
  return data.pivot;
}

const n = (v: unknown): number => Number(v ?? 0);

/**
 * The same figures, with floating-point sums compared to 1e-9 relative: DuckDB adds doubles in
 * parallel, so the same query over the same facts can differ in the last bit from run to run.
 */
function expectSame(actual: unknown, expected: unknown, path = 'value'): void {
  if (typeof actual === 'number' && typeof expected === 'number') {
    if (Math.abs(actual - expected) > 1e-9 * Math.max(1, Math.abs(expected))) {
      throw new Error(`${path}: ${actual} is not ${expected}`);
    }
    return;
  }
  if (actual !== null && expected !== null && typeof actual === 'object' && typeof expected === 'object') {
    expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
    for (const [key, value] of Object.entries(actual)) {
      expectSame(value, (expected as Record<string, unknown>)[key], `${path}.${key}`);
    }
    return;
  }
  expect(actual).toEqual(expected);
}
const byKey = (rows: readonly Row[], key: string): Map<string, Row> => new Map(rows.map((r) => [String(r[key]), r]));
const sum = (rows: readonly Row[], metric: string): number => rows.reduce((s, r) => s + n(r[metric]), 0);

function plantsApi(bearer: string | null = t.sandbox.clientSecret) {
  const url = `${t.sandbox.baseUrl}/sandbox/plants`;
  const request = async (method: string, body?: unknown) => {
    const res = await fetch(url, {
      method,
      headers: {
        'content-type': 'application/json',
        ...(bearer === null ? {} : { authorization: `Bearer ${bearer}` }),
      },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
  };
  return { get: () => request('GET'), put: (body: unknown) => request('PUT', body), request };
}

/** A fingerprint of every fact value: equal only when the data is the same to the bit. */
async function factsFingerprint(): Promise<string> {
  const [row] = await t.sandbox.sql(
    `SELECT bit_xor(hash(rowid, impressions, uniq_imps, viewable, clicks, uniq_clicks, spend, cnt, uniq, revenue))::VARCHAR AS h,
       count(*)::VARCHAR AS n FROM facts`,
  );
  return `${String(row?.h)}/${String(row?.n)}`;
}

const BR_INSTALLS: PlantInput = { where: { countryCode: 'BR' }, metric: 'installs', factor: 0.4, days: 'yesterday' };
const US_INSTALLS: PlantInput = { ...BR_INSTALLS, where: { countryCode: 'US' } };

describe('planted causes over PUT /sandbox/plants', () => {
  let original: string;
  beforeAll(async () => {
    original = await factsFingerprint();
  });
  afterEach(async () => {
    await t.sandbox.replacePlants([]);
  });

  // US: BR carries the demo's spend collapse yesterday, which leaves it about one install on `small`.
  it('multiplies US installs by 0.4 yesterday in every rollup, and nothing else', async () => {
    const byCountry = await pivot('countryCode');
    const usSources = await pivot('source', { filter: { countryCode: { equals: 'US' } } });
    const week = await pivot('countryCode date', { from: '2026-11-14', to: TODAY });
    const usBefore = byKey(byCountry.results, 'countryCode').get('US') as Row;
    expect(n(usBefore.installs)).toBeGreaterThan(20);

    const put = await plantsApi().put(US_INSTALLS);
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ plants: [US_INSTALLS], matchedFacts: [expect.any(Number)] });
    expect((put.body.matchedFacts as number[])[0]).toBeGreaterThan(0);
    expect((await plantsApi().get()).body).toEqual(put.body);

    // By country: US's installs are 0.4 of what they were (rounded once), every other figure is unchanged.
    const after = await pivot('countryCode');
    const usAfter = byKey(after.results, 'countryCode').get('US') as Row;
    expect(n(usAfter.installs)).toBe(Math.floor(0.4 * n(usBefore.installs) + 0.5));
    for (const metric of ['impressions', 'clicks', 'spend', 'events', 'eventValue']) {
      expectSame(usAfter[metric], usBefore[metric], metric);
    }
    expect(n(usAfter.installsCpi)).toBeCloseTo(n(usAfter.spend) / n(usAfter.installs), 9);
    expect(n(usAfter.mmp) + n(usAfter.skad)).toBe(n(usAfter.installs));
    const others = (rows: readonly Row[]) => rows.filter((r) => r.countryCode !== 'US');
    expectSame(others(after.results), others(byCountry.results));
    expect(sum(after.results, 'installs')).toBe(n(after.totals.installs));
    expect(n(after.totals.installs)).toBe(n(byCountry.totals.installs) - n(usBefore.installs) + n(usAfter.installs));

    // By source within US: the same change, spread over the sources; totals are the sum of the rows.
    const usSourcesAfter = await pivot('source', { filter: { countryCode: { equals: 'US' } } });
    expect(n(usSourcesAfter.totals.installs)).toBe(n(usAfter.installs));
    expect(sum(usSourcesAfter.results, 'installs')).toBe(n(usAfter.installs));
    const beforeBySource = byKey(usSources.results, 'source');
    for (const row of usSourcesAfter.results) {
      const was = n(beforeBySource.get(String(row.source))?.installs);
      expect(n(row.installs)).toBeGreaterThanOrEqual(Math.floor(0.4 * was) - 1);
      expect(n(row.installs)).toBeLessThanOrEqual(Math.ceil(0.4 * was) + 1);
      expectSame(row.spend, beforeBySource.get(String(row.source))?.spend);
    }

    // Other days are unchanged; yesterday's hourly rows add up to the daily figure.
    const weekAfter = await pivot('countryCode date', { from: '2026-11-14', to: TODAY });
    const key = (r: Row) => `${r.countryCode}/${String(r.date).slice(0, 10)}`;
    const weekBefore = new Map(week.results.map((r) => [key(r), r]));
    for (const row of weekAfter.results) {
      if (key(row) === `US/${YESTERDAY}`) expect(n(row.installs)).toBe(n(usAfter.installs));
      else expectSame(row, weekBefore.get(key(row)), key(row));
    }
    const hourly = await pivot('date(granularity: HOURLY)', { filter: { countryCode: { equals: 'US' } } });
    expect(hourly.results).toHaveLength(24);
    expect(sum(hourly.results, 'installs')).toBe(n(usAfter.installs));
  });

  it('plants on a combination of two dimensions', async () => {
    const plant = {
      where: { countryCode: 'US', appPlatform: 'IOS' },
      metric: 'spend',
      factor: 2,
      days: [DAY_BEFORE, TODAY],
    };
    const range = { from: DAY_BEFORE, to: TODAY };
    const before = await pivot('countryCode appPlatform', range);
    expect((await plantsApi().put([plant])).status).toBe(200);
    const after = await pivot('countryCode appPlatform', range);
    const key = (r: Row) => `${r.countryCode}/${r.appPlatform}`;
    const was = new Map(before.results.map((r) => [key(r), r]));
    expect(after.results.map(key)).toEqual(before.results.map(key));
    for (const row of after.results) {
      const old = was.get(key(row)) as Row;
      if (key(row) === 'US/IOS') {
        expect(n(row.spend)).toBeCloseTo(2 * n(old.spend), 6);
        expect(row.installs).toEqual(old.installs);
        expect(n(row.installsCpi)).toBeCloseTo(2 * n(old.installsCpi), 6);
      } else expectSame(row, old, key(row));
    }
    expect(sum(after.results, 'spend')).toBeCloseTo(n(after.totals.spend), 6);
  });

  it('replaces the plants on each PUT, and [] restores the generated data exactly', async () => {
    const base = await pivot('countryCode source', { from: DAY_BEFORE, to: TODAY });
    const api = plantsApi();
    expect((await api.put(BR_INSTALLS)).status).toBe(200);
    const second = { where: { source: 'Vungle' }, metric: 'clicks', factor: 3, days: [DAY_BEFORE, YESTERDAY] };
    const put = await api.put([second, { ...US_INSTALLS, metric: 'events', factor: 0.5 }]);
    expect(put.status).toBe(200);
    expect(put.body.plants).toHaveLength(2);
    const now = await pivot('countryCode source', { from: DAY_BEFORE, to: TODAY });
    // BR's installs are back (the first plant is gone); Vungle's clicks tripled; US's events halved.
    const was = (c: string, s: string) => base.results.find((r) => r.countryCode === c && r.source === s);
    for (const row of now.results) {
      const old = was(String(row.countryCode), String(row.source)) as Row;
      expect(row.installs).toEqual(old.installs);
      if (row.source === 'Vungle') expect(n(row.clicks)).toBeGreaterThan(n(old.clicks));
      else expect(row.clicks).toEqual(old.clicks);
      if (row.countryCode !== 'US') expect(row.events).toEqual(old.events);
    }
    const usEvents = (p: PivotData['pivot']) =>
      sum(
        p.results.filter((r) => r.countryCode === 'US'),
        'events',
      );
    expect(usEvents(now)).toBeLessThan(usEvents(base));
    expect(await factsFingerprint()).not.toBe(original);

    const cleared = await api.put([]);
    expect(cleared).toMatchObject({ status: 200, body: { plants: [], matchedFacts: [] } });
    expect(await factsFingerprint()).toBe(original);
    expectSame(await pivot('countryCode source', { from: DAY_BEFORE, to: TODAY }), base);
  });

  it('sets installs to zero while spend goes on (factor 0)', async () => {
    const before = await pivot('campaignId', { filter: { campaignId: { equals: 1001 } } });
    expect(n(before.totals.installs)).toBeGreaterThan(0);
    await plantsApi().put({ where: { campaignId: 1001 }, metric: 'installs', factor: 0, days: 'yesterday' });
    const after = await pivot('campaignId', { filter: { campaignId: { equals: 1001 } } });
    expect(n(after.totals.installs)).toBe(0);
    expect(n(after.totals.mmp) + n(after.totals.skad)).toBe(0);
    expectSame(after.totals.spend, before.totals.spend);
    expect(after.totals.impressions).toEqual(before.totals.impressions);
    expect(after.totals.installsCpi).toBeNull();
  });

  it('keeps parts within their whole: events carry their revenue, impressions their viewable share', async () => {
    const before = await pivot('countryCode', { filter: { countryCode: { equals: 'JP' } } });
    await t.sandbox.replacePlants([
      { where: { countryCode: 'JP' }, metric: 'events', factor: 0.5, days: 'yesterday' },
      { where: { countryCode: 'JP' }, metric: 'impressions', factor: 0.5, days: 'yesterday' },
    ]);
    const after = await pivot('countryCode', { filter: { countryCode: { equals: 'JP' } } });
    expect(n(after.totals.events)).toBe(Math.floor(0.5 * n(before.totals.events) + 0.5));
    expect(n(after.totals.eventValue)).toBeCloseTo(0.5 * n(before.totals.eventValue), 6);
    expect(n(after.totals.uniqueEvents)).toBeLessThanOrEqual(n(after.totals.events));
    expect(n(after.totals.impressions)).toBe(Math.floor(0.5 * n(before.totals.impressions) + 0.5));
    expect(n(after.totals.sourceViewa)).toBeCloseTo(n(before.totals.sourceViewa), 2);
    expect(n(after.totals.ctr)).toBeCloseTo(2 * n(before.totals.ctr), 4);
  });

  it('random plants, one after another: the segment gets round(factor × original), every other row is unchanged', async () => {
    const random = seededRandom(7);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const dimensions = ['countryCode', 'appPlatform', 'campaignId', 'adType', 'deviceType'];
    const metrics = ['installs', 'spend', 'clicks', 'impressions', 'events'] as const;
    for (let i = 0; i < 30; i++) {
      const from = 1 + Math.floor(random() * 6);
      const days: PlantInput['days'] =
        random() < 0.5 ? 'yesterday' : [utcDay(NOW, from), utcDay(NOW, from - 1 - Math.floor(random() * 3))];
      const [start, end] = days === 'yesterday' ? [YESTERDAY, TODAY] : days;
      await plantsApi().put([]);
      const segments = (await pivot(dimensions.join(' '), { from: start, to: end, metrics: 'installs' })).results;
      const segment = pick(segments);
      const dims = [...dimensions].sort(() => random() - 0.5).slice(0, 1 + (i % 3));
      const plant: PlantInput = {
        where: Object.fromEntries(dims.map((d) => [d, String(segment[d])])),
        metric: pick(metrics),
        factor: Math.round(random() * 250) / 100,
        days,
      };
      const query = () => pivot(dims.join(' '), { from: start, to: end, metrics: plant.metric });
      const before = await query();
      expect((await plantsApi().put(plant)).status).toBe(200);
      const after = await query();
      const key = (r: Row) => dims.map((d) => String(r[d])).join('/');
      const target = dims.map((d) => plant.where[d]).join('/');
      const was = new Map(before.results.map((r) => [key(r), r]));
      expect(after.results.some((r) => key(r) === target)).toBe(true);
      for (const row of after.results) {
        const old = n(was.get(key(row))?.[plant.metric]);
        if (key(row) !== target) expectSame(row, was.get(key(row)), key(row));
        else if (plant.metric === 'spend') expect(n(row.spend)).toBeCloseTo(plant.factor * old, 6);
        else expect(n(row[plant.metric])).toBe(Math.floor(plant.factor * old + 0.5));
      }
      expect(sum(after.results, plant.metric)).toBeCloseTo(n(after.totals[plant.metric]), 6);
    }
    await plantsApi().put([]);
    expect(await factsFingerprint()).toBe(original);
  }, 120_000);

  it.each([
    ['{"where": ', /Request body must be JSON/],
    [
      { ...BR_INSTALLS, where: { countryCod: 'BR' } },
      /plant\.where: unknown dimension "countryCod"\. Did you mean "countryCode"/,
    ],
    [{ ...BR_INSTALLS, where: { date: '2026-11-20' } }, /plant\.where: "date" cannot be planted on/],
    [
      [{ ...BR_INSTALLS, metric: 'instals' }],
      /plants\[0\]\.metric: unknown metric "instals"\. Did you mean "installs"/,
    ],
    [{ ...BR_INSTALLS, factor: -1 }, /plant\.factor must be a number from 0 to 1000/],
    [{ ...BR_INSTALLS, factor: '0.4' }, /plant\.factor must be a number .* not "0\.4"/],
    [{ ...BR_INSTALLS, days: 'yestrday' }, /plant\.days: "yestrday" is not .* Did you mean "yesterday"/],
    [{ ...BR_INSTALLS, days: ['2026-11-20', '2026-11-19'] }, /plant\.days: "2026-11-20" must be before "2026-11-19"/],
    [{ ...BR_INSTALLS, days: ['2026-11-31', '2026-12-01'] }, /"2026-11-31" is not a date/],
    [{ ...BR_INSTALLS, days: ['2020-01-01', '2020-02-01'] }, /holds no data; the data covers 2026-08-14 to 2026-11-21/],
    [
      { ...BR_INSTALLS, where: { countryCode: 'BRR' } },
      /plant\.where\.countryCode: no fact has countryCode "BRR"\. Did you mean "BR"/,
    ],
    [{ ...BR_INSTALLS, scale: 2 }, /plant: unknown field "scale"/],
    [[BR_INSTALLS, { where: {} }], /plants\[1\]\.metric is missing; plants\[1\]\.factor is missing/],
  ])('answers 400 naming the field for %j, and changes nothing', async (body, message) => {
    await t.sandbox.replacePlants(BR_INSTALLS);
    const kept = await factsFingerprint();
    const res = await plantsApi().put(body);
    expect(res.status).toBe(400);
    expect(String(res.body.error)).toMatch(message);
    expect((await plantsApi().get()).body.plants).toEqual([BR_INSTALLS]);
    expect(await factsFingerprint()).toBe(kept);
  });

  it('answers 401 without the client secret, 405 to other methods, and changes nothing', async () => {
    const missing = await plantsApi(null).put(BR_INSTALLS);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer');
    expect((await plantsApi('wrong').put(BR_INSTALLS)).status).toBe(401);
    expect((await plantsApi('wrong').get()).status).toBe(401);
    expect(JSON.stringify(missing.body)).not.toContain(t.sandbox.clientSecret);
    const post = await plantsApi().request('POST', BR_INSTALLS);
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, PUT');
    expect(t.sandbox.plants().plants).toEqual([]);
    expect(await factsFingerprint()).toBe(original);
  });

  it('answers 403 to a caller that is not on this machine, even with the secret', async () => {
    const req = Object.assign(Readable.from([Buffer.from(JSON.stringify(BR_INSTALLS))]), {
      method: 'PUT',
      headers: { authorization: `Bearer ${t.sandbox.clientSecret}` },
      socket: { remoteAddress: '10.1.2.3' },
    }) as unknown as IncomingMessage;
    const answers: Array<{ status: number; body: unknown }> = [];
    const control = {
      clientSecret: t.sandbox.clientSecret,
      plants: t.sandbox.plants,
      replacePlants: t.sandbox.replacePlants,
    };
    await plantsRoute(req, {} as ServerResponse, control, (_res, status, body) => {
      answers.push({ status, body });
    });
    expect(answers).toEqual([{ status: 403, body: { error: expect.stringMatching(/loopback/) } }]);
    expect(await factsFingerprint()).toBe(original);
  });
});

describe('plants from the start', () => {
  it('startSandbox({ plants }) starts with them in force', async () => {
    const sandbox = await startSandbox({ scale: 'small', seed: 1, now: NOW, plants: [BR_INSTALLS] });
    try {
      expect(sandbox.plants()).toEqual({ plants: [BR_INSTALLS], matchedFacts: [expect.any(Number)] });
      const [planted] = await sandbox.sql(`SELECT count(*)::INTEGER AS n FROM plant_originals`);
      expect(Number(planted?.n)).toBe(sandbox.plants().matchedFacts[0]);
    } finally {
      await sandbox.stop();
    }
  });

  it('startSandbox refuses a bad plant with a ConfigError naming it', async () => {
    const failure = await startSandbox({
      scale: 'small',
      now: NOW,
      plants: { ...BR_INSTALLS, where: { countryCode: 'Brasil' } },
    }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ConfigError);
    expect(String((failure as Error).message)).toMatch(
      /plants: plant\.where\.countryCode: no fact has countryCode "Brasil"/,
    );
  });

  it('pivotbot sandbox --plant prints the plants in its friendly text', async () => {
    let out = '';
    let release = () => {};
    const until = new Promise<void>((resolve) => {
      release = resolve;
    });
    const code = await runSandboxCommand(
      { port: '0', plant: JSON.stringify([BR_INSTALLS]) },
      {
        out: (s) => {
          out += s;
        },
        err: () => {},
        until,
        onReady: () => release(),
      },
    );
    expect(code).toBe(0);
    expect(out).toMatch(/plants: {2}1; GET\/PUT http:\/\/127\.0\.0\.1:\d+\/sandbox\/plants/);
    expect(out).toMatch(/installs ×0\.4 where countryCode=BR, yesterday \(\d{4}-\d{2}-\d{2}\): \d+ fact rows/);
  });

  it('pivotbot sandbox --plant refuses a bad plant before starting, naming the flag', async () => {
    await expect(
      runSandboxCommand({ port: '0', plant: '{"where":{},"metric":"spnd"}' }, { out: () => {}, err: () => {} }),
    ).rejects.toThrow(/--plant: plant\.metric: unknown metric "spnd"\. Did you mean "spend"\?/);
  });
});
