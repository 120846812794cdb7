import { defaultGlossary } from '../../../../src/query/index.js';
import { dimensionOptionGroups, metricOptionGroups, queryModalView } from '../../../../src/slack/app/queryModal.js';
import {
  EMPTY_FIELDS,
  fieldProblems,
  fieldsFromState,
  MODAL_RANGES,
  QUERY_BLOCKS,
  type QueryModalFields,
  queryLine,
  validateQueryModal,
} from '../../../../src/slack/app/queryModalFields.js';

const terms = defaultGlossary().terms;
const options = { now: new Date('2026-11-20T10:00:00Z'), defaultTimeZone: 'UTC' };
const fields = (extra: Partial<QueryModalFields>): QueryModalFields => ({ ...EMPTY_FIELDS, ...extra });

describe('queryLine', () => {
  it.each([
    [{ metrics: ['spend'] }, 'spend yesterday'],
    [{ metrics: ['spend', 'installs'], dimensions: ['countryCode'] }, 'spend, installs by countryCode yesterday'],
    [{ metrics: ['spend'], country: 'US, Brazil' }, 'spend yesterday where countryCode in (US, BR)'],
    [
      { metrics: ['spend'], country: 'us', app: '101 102' },
      'spend yesterday where countryCode = US and appId in (101, 102)',
    ],
    [{ metrics: ['spend'], campaign: '1001', top: '5' }, 'spend yesterday where campaignId = 1001 top 5'],
    [{ metrics: ['installs'], range: 'last 7 days', compare: 'last_week' }, 'installs last 7 days vs last week'],
    [{ metrics: ['installs'], compare: 'previous' }, 'installs yesterday vs previous period'],
    [{ metrics: ['spend'], country: 'Narnia' }, 'spend yesterday'],
    [{}, '… yesterday'],
  ] as Array<[Partial<QueryModalFields>, string]>)('%j → %s', (extra, line) => {
    expect(queryLine(fields(extra))).toBe(line);
  });
});

describe('validateQueryModal', () => {
  it.each([
    [{}, QUERY_BLOCKS.metrics],
    [{ metrics: ['spend'], country: 'Narnia' }, QUERY_BLOCKS.country],
    [{ metrics: ['spend'], app: 'abc' }, QUERY_BLOCKS.app],
    [{ metrics: ['spend'], campaign: '99999999999' }, QUERY_BLOCKS.campaign],
    [{ metrics: ['spend'], top: '0' }, QUERY_BLOCKS.top],
    [{ metrics: ['spend'], top: 'ten' }, QUERY_BLOCKS.top],
    [{ metrics: ['spend'], dimensions: ['siteName', 'city'] }, QUERY_BLOCKS.dimensions],
    // Hourly rows exist for 15 days only: the range is what to change.
    [{ metrics: ['spend'], dimensions: ['date:hourly'], range: 'last_30_days' }, QUERY_BLOCKS.range],
  ] as Array<[Partial<QueryModalFields>, string]>)('%j is refused at %s', (extra, block) => {
    const verdict = validateQueryModal(fields(extra), options);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) {
      expect(Object.keys(verdict.errors)).toContain(block);
      for (const text of Object.values(verdict.errors)) expect(text.length).toBeLessThanOrEqual(150);
    }
  });

  it.each(MODAL_RANGES.map(([range]) => range))('every offered range compiles: %s', (range) => {
    expect(validateQueryModal(fields({ metrics: ['spend'], range }), options)).toEqual({
      ok: true,
      query: `spend ${range}`,
    });
  });

  it('every offered metric and dimension compiles', () => {
    const metrics = metricOptionGroups(terms).flatMap((g) => g.options.map((o) => o.value));
    const dimensions = dimensionOptionGroups(terms).flatMap((g) => g.options.map((o) => o.value));
    const refused = [
      ...metrics.filter((m) => !validateQueryModal(fields({ metrics: [m] }), options).ok),
      ...dimensions.filter((d) => !validateQueryModal(fields({ metrics: ['spend'], dimensions: [d] }), options).ok),
    ];
    expect(refused).toEqual([]);
  });

  it('a full form compiles to the line shown', () => {
    const full = fields({
      metrics: ['spend', 'installsCpi'],
      dimensions: ['countryCode', 'date:daily'],
      range: 'last 14 days',
      country: 'US, Brazil',
      app: '101',
      top: '10',
      compare: 'previous',
    });
    expect(validateQueryModal(full, options)).toEqual({ ok: true, query: queryLine(full) });
  });
});

describe('the pickers', () => {
  it.each([
    ['metrics', metricOptionGroups(terms)],
    ['dimensions', dimensionOptionGroups(terms)],
  ])('%s: grouped, within Slack limits, with descriptions', (_name, groups) => {
    const all = groups.flatMap((g) => g.options);
    expect(groups.length).toBeGreaterThan(2);
    expect(all.length).toBeLessThanOrEqual(100);
    expect(new Set(all.map((o) => o.value)).size).toBe(all.length);
    for (const o of all) {
      expect(o.text.text.length).toBeLessThanOrEqual(75);
      expect(o.description?.text.length ?? 0).toBeGreaterThan(0);
      expect(o.description?.text.length ?? 0).toBeLessThanOrEqual(75);
    }
    for (const g of groups) expect(g.label.text.length).toBeLessThanOrEqual(75);
  });

  it('shows the trade’s words beside catalog names', () => {
    const cpi = metricOptionGroups(terms)
      .flatMap((g) => g.options)
      .find((o) => o.value === 'installsCpi');
    expect(cpi?.text.text).toMatch(/cpi/);
    const country = dimensionOptionGroups(terms)
      .flatMap((g) => g.options)
      .find((o) => o.value === 'countryCode');
    expect(country?.text.text).toMatch(/country/);
  });
});

describe('the view', () => {
  it('round-trips its fields through Slack state and shows the line', () => {
    const chosen = fields({ metrics: ['spend'], dimensions: ['countryCode'], country: 'BR', range: 'last 7 days' });
    const view = queryModalView({ channel: 'C1', terms, fields: chosen }) as {
      blocks: Array<{ block_id?: string; element?: Record<string, unknown>; text?: { text: string } }>;
      private_metadata: string;
    };
    expect(JSON.parse(view.private_metadata)).toEqual({ channel: 'C1' });
    expect(view.blocks.find((b) => b.block_id === QUERY_BLOCKS.line)?.text?.text).toContain(
      '/pivot spend by countryCode last 7 days where countryCode = BR',
    );
    // The state Slack would send back for those initial values.
    const state: Record<string, Record<string, unknown>> = {};
    for (const block of view.blocks) {
      const el = block.element;
      if (!block.block_id || !el) continue;
      const action = el.action_id as string;
      if (el.type === 'multi_static_select')
        state[block.block_id] = { [action]: { selected_options: el.initial_options ?? [] } };
      else if (el.type === 'static_select')
        state[block.block_id] = { [action]: { selected_option: el.initial_option ?? null } };
      else state[block.block_id] = { [action]: { value: el.initial_value ?? null } };
    }
    expect(fieldsFromState(state)).toEqual(chosen);
  });

  it('reads an empty state as empty fields', () => {
    expect(fieldsFromState(undefined)).toEqual(EMPTY_FIELDS);
    expect(fieldProblems(EMPTY_FIELDS)).toEqual({ [QUERY_BLOCKS.metrics]: 'Pick at least one metric.' });
  });
});
