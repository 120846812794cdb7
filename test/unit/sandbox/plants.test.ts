import { plantHitsSql } from '../../../src/sandbox/plantedFacts.js';
import {
  checkPlants,
  type DataSpan,
  describePlant,
  PLANT_DIMENSIONS,
  type Plant,
  parsePlantsJson,
  plantDays,
} from '../../../src/sandbox/plants.js';

const SPAN: DataSpan = { today: '2026-11-21', first: '2026-08-14', end: '2026-11-22' };
const BR: Plant = { where: { countryCode: 'BR' }, metric: 'installs', factor: 0.4, days: 'yesterday' };

describe('checkPlants', () => {
  it('accepts one plant or a list, and turns numbers and booleans into the text the API compares', () => {
    expect(checkPlants(BR)).toEqual({ plants: [BR], problems: [] });
    const two = [
      BR,
      {
        where: { campaignId: 1001, appPlatform: 'IOS' },
        metric: 'spend',
        factor: 0,
        days: ['2026-11-14', '2026-11-21'],
      },
    ];
    expect(checkPlants(two, SPAN)).toEqual({
      plants: [
        BR,
        {
          where: { campaignId: '1001', appPlatform: 'IOS' },
          metric: 'spend',
          factor: 0,
          days: ['2026-11-14', '2026-11-21'],
        },
      ],
      problems: [],
    });
    expect(checkPlants([])).toEqual({ plants: [], problems: [] });
    expect(checkPlants({ ...BR, where: {} }).problems).toEqual([]);
  });

  it.each([
    [{ ...BR, where: { country: 'BR' } }, 'plant.where: unknown dimension "country". Did you mean'],
    [{ ...BR, where: { nonsense: 'x' } }, 'plant.where: unknown dimension "nonsense". Use a dimension name of the API'],
    [
      { ...BR, where: { dayOfWeek: 'Monday' } },
      'plant.where: "dayOfWeek" cannot be planted on: the days of a plant are its "days"',
    ],
    [{ ...BR, where: { goalType: 'CPI' } }, 'plant.where: "goalType" cannot be planted on'],
    [{ ...BR, where: { countryCode: null } }, 'plant.where.countryCode must be a string or a number, not null'],
    [{ ...BR, where: ['BR'] }, 'plant.where must be an object of dimension values'],
    [
      { ...BR, metric: 'cpi' },
      'plant.metric: unknown metric "cpi". Known metrics: installs, spend, clicks, impressions, events.',
    ],
    [{ ...BR, metric: 'click' }, 'plant.metric: unknown metric "click". Did you mean "clicks"?'],
    [{ ...BR, metric: 3 }, 'plant.metric must be one of installs, spend, clicks, impressions, events'],
    [{ ...BR, factor: -0.1 }, 'plant.factor must be a number from 0 to 1000 (0.4 leaves 40 %), not -0.1'],
    [{ ...BR, factor: 1001 }, 'plant.factor must be a number from 0 to 1000'],
    [{ ...BR, factor: null }, 'plant.factor must be a number from 0 to 1000 (0.4 leaves 40 %), not null'],
    [{ ...BR, days: 'today' }, 'plant.days: "today" is not "yesterday" or ["<from>", "<to>"].'],
    [{ ...BR, days: ['2026-11-20'] }, 'plant.days must be "yesterday" or two UTC dates'],
    [{ ...BR, days: ['2026-02-30', '2026-03-01'] }, 'plant.days: "2026-02-30" is not a date (YYYY-MM-DD)'],
    [{ ...BR, days: ['20261101', 'x'] }, 'plant.days: "20261101" and "x" are not dates (YYYY-MM-DD)'],
    [{ ...BR, days: ['2026-11-20', '2026-11-20'] }, 'plant.days: "2026-11-20" must be before "2026-11-20"'],
    [{ ...BR, factr: 2 }, 'plant: unknown field "factr". Did you mean "factor"?'],
    [{ where: { countryCode: 'BR' } }, 'plant.metric is missing'],
    ['BR', 'plant must be an object'],
    [[BR, 7], 'plants[1] must be an object'],
  ])('names the field of %j', (value, message) => {
    const { plants, problems } = checkPlants(value);
    expect(plants).toEqual([]);
    expect(problems.join('\n')).toContain(message);
  });

  it('lists every problem at once', () => {
    const { problems } = checkPlants([
      { ...BR, metric: 'instals', factor: -1 },
      { ...BR, days: 'tomorrow' },
    ]);
    expect(problems).toEqual([
      'plants[0].metric: unknown metric "instals". Did you mean "installs"?',
      'plants[0].factor must be a number from 0 to 1000 (0.4 leaves 40 %), not -1',
      'plants[1].days: "tomorrow" is not "yesterday" or ["<from>", "<to>"].',
    ]);
  });

  it('with the data span, refuses days that hold no data and keeps days that overlap it', () => {
    expect(checkPlants({ ...BR, days: ['2026-11-22', '2026-11-30'] }, SPAN).problems).toEqual([
      'plant.days: ["2026-11-22", "2026-11-30") holds no data; the data covers 2026-08-14 to 2026-11-21',
    ]);
    expect(checkPlants({ ...BR, days: ['2026-01-01', '2026-08-14'] }, SPAN).problems).toHaveLength(1);
    expect(checkPlants({ ...BR, days: ['2026-01-01', '2026-08-15'] }, SPAN).problems).toEqual([]);
    expect(checkPlants({ ...BR, days: ['2026-11-21', '2026-11-30'] }, SPAN).problems).toEqual([]);
  });

  it('refuses more than 1000 plants', () => {
    expect(checkPlants(Array.from({ length: 1001 }, () => BR)).problems).toEqual(['at most 1000 plants, not 1001']);
  });

  it('offers every dimension a fact row determines, and no time dimension', () => {
    expect(PLANT_DIMENSIONS).toEqual(
      expect.arrayContaining(['countryCode', 'source', 'campaignId', 'appPlatform', 'siteBundle', 'adType']),
    );
    expect(PLANT_DIMENSIONS).not.toEqual(expect.arrayContaining(['date']));
    expect(PLANT_DIMENSIONS).not.toContain('dateToStr');
    expect(PLANT_DIMENSIONS).not.toContain('goalType');
  });
});

describe('parsePlantsJson', () => {
  it('reads JSON text, and says what is wrong with text that is not JSON', () => {
    expect(parsePlantsJson(JSON.stringify(BR))).toEqual({ plants: [BR], problems: [] });
    const bad = parsePlantsJson('{where:');
    expect(bad.plants).toEqual([]);
    expect(bad.problems[0]).toMatch(/^not valid JSON \(.*\); for example '\{"where":\{"countryCode":"BR"\}/);
  });
});

describe('plantDays and describePlant', () => {
  it('resolves "yesterday" against the data\'s today, across a month end', () => {
    expect(plantDays(BR, '2026-11-21')).toEqual(['2026-11-20', '2026-11-21']);
    expect(plantDays(BR, '2026-03-01')).toEqual(['2026-02-28', '2026-03-01']);
    expect(plantDays({ ...BR, days: ['2026-11-01', '2026-11-08'] }, '2026-11-21')).toEqual([
      '2026-11-01',
      '2026-11-08',
    ]);
  });

  it('describes a plant in one line', () => {
    expect(describePlant(BR, '2026-11-21')).toBe('installs ×0.4 where countryCode=BR, yesterday (2026-11-20)');
    expect(
      describePlant({ ...BR, where: { countryCode: 'US', source: 'Vungle' }, days: ['2026-11-01', '2026-11-08'] }),
    ).toBe('installs ×0.4 where countryCode=US, source=Vungle, 2026-11-01 to 2026-11-07');
    expect(describePlant({ ...BR, where: {}, metric: 'spend', factor: 0, days: ['2026-11-01', '2026-11-02'] })).toBe(
      'spend ×0 where every segment, 2026-11-01',
    );
  });
});

describe('plantHitsSql', () => {
  it("binds every value of the plant and selects the rows of the metric's kind", () => {
    const plant: Plant = {
      where: { countryCode: "BR'; DROP TABLE facts; --", siteBundle: 'com.example' },
      metric: 'events',
      factor: 0.25,
      days: 'yesterday',
    };
    const { sql, params } = plantHitsSql(plant, 3, {
      today: '2026-11-21',
      siteBundleSince: '2026-08-21T00:00:00.000Z',
    });
    expect(sql).not.toContain('DROP TABLE');
    expect(sql).not.toContain('com.example');
    expect(sql).not.toContain('2026-11-20');
    expect(sql).toContain('f.kind = 2');
    expect(sql).toContain('LEFT JOIN countries k');
    expect(params).toEqual(
      expect.arrayContaining([
        '2026-11-20 00:00:00+00',
        '2026-11-21 00:00:00+00',
        "BR'; DROP TABLE facts; --",
        'com.example',
        0.25,
      ]),
    );
    expect(sql.match(/\$\d+/g)?.length).toBeGreaterThanOrEqual(params.length);
  });
});
