import { type CompiledQuery, compileQuery, defaultGlossary, GLOSSARY, QueryError } from '../../../src/query/index.js';
import { findDimension, getDimension, getMetric } from '../../../src/reporting/index.js';

const now = new Date('2026-11-20T12:00:00Z');
const compile = (text: string) => compileQuery(text, { now }) as CompiledQuery;

function errorOf(text: string): QueryError {
  try {
    compileQuery(text, { now });
  } catch (error) {
    if (error instanceof QueryError) return error;
    throw error;
  }
  throw new Error(`expected "${text}" to fail`);
}

describe('the glossary (data)', () => {
  it('has every word once', () => {
    const words = GLOSSARY.flatMap((t) => t.words);
    expect(words.filter((w, i) => words.indexOf(w) !== i)).toEqual([]);
  });

  it('maps every word to real catalog fields, never an invented one', () => {
    for (const term of GLOSSARY) {
      const m = term.means;
      expect(term.description.length).toBeGreaterThan(5);
      if (m.kind === 'metric') expect(getMetric(m.metric)).toBeDefined();
      if (m.kind === 'dimension') expect(getDimension(m.dimension)).toBeDefined();
      if (m.kind === 'ambiguous') {
        expect(m.choices.length).toBeGreaterThanOrEqual(2);
        for (const c of m.choices) expect(getMetric(c.name) ?? getDimension(c.name)).toBeDefined();
      }
      if (m.kind === 'missing') for (const n of m.nearest) expect(getMetric(n) ?? getDimension(n)).toBeDefined();
    }
  });

  it.each(GLOSSARY.flatMap((t) => (t.means.kind === 'metric' ? t.words.map((w) => [w, t.means] as const) : [])))(
    'compiles the metric word %j with its arguments',
    (word, means) => {
      if (means.kind !== 'metric') throw new Error('metric terms only');
      const [spec] = compile(word).definition.query.metrics;
      expect(spec).toEqual({
        name: means.metric,
        ...(means.args ? { args: means.args } : {}),
        ...(means.as ? { as: means.as } : {}),
      });
    },
  );

  it.each(GLOSSARY.flatMap((t) => (t.means.kind === 'dimension' ? t.words.map((w) => [w, t.means] as const) : [])))(
    'compiles the dimension word %j',
    (word, means) => {
      if (means.kind !== 'dimension') throw new Error('dimension terms only');
      const [spec] = compile(`spend by ${word}`).definition.query.dimensions;
      expect(spec).toEqual({
        name: means.dimension,
        ...(means.granularity ? { args: { granularity: means.granularity } } : {}),
      });
    },
  );

  it.each(['cpi', 'cpa', 'roas', 'ecpm', 'cpm', 'cpc', 'ctr', 'cvr', 'ipm', 'iti', 'revenue', 'cost', 'spend'])(
    'knows the metric word %j',
    (word) => {
      expect(() => compile(word)).not.toThrow();
    },
  );

  it.each([
    'country',
    'platform',
    'os',
    'app',
    'campaign',
    'creative',
    'ad',
    'ad set',
    'exchange',
    'source',
    'publisher',
    'site',
    'placement',
    'device',
    'region',
    'city',
    'day',
    'daily',
    'week',
    'weekly',
    'hour',
    'hourly',
    'month',
  ])('knows the dimension word %j', (word) => {
    expect(() => compile(`spend by ${word}`)).not.toThrow();
  });
});

describe('suggestions by meaning', () => {
  it.each([
    ['cpii', 'installsCpi'],
    ['cip', 'installsCpi'],
    ['cpis', 'installsCpi'],
    ['rosa', 'eventsRoas'],
    ['reveune', 'eventValue'],
    ['purchase', 'eventValue'],
  ])('suggests for the metric %j first %j', (word, first) => {
    expect(errorOf(`${word} by countryCode`).suggestions[0]).toBe(first);
  });

  it('never puts cpc first for a word that means cost per install', () => {
    for (const word of ['cpi', 'cpii', 'cip', 'ecpi', 'cpis'])
      expect(defaultGlossary().suggest(word, 'metric')[0]).toBe('installsCpi');
  });

  it('finds a field by a word of its description when nothing is spelt alike', () => {
    expect(defaultGlossary().suggest('engaged', 'metric').slice(0, 2)).toEqual(['eviews', 'eclicks']);
    expect(defaultGlossary().suggest('designated', 'dimension')).toEqual(['dma']);
  });

  it.each([
    ['contry', 'countryCode'],
    ['publsher', 'siteName'],
    ['creativ', 'ad'],
  ])('suggests for the dimension %j first %j', (word, first) => {
    expect(errorOf(`spend by ${word}`).suggestions[0]).toBe(first);
  });

  it('asks which one for a word that means two things, with both choices', () => {
    const e = errorOf('spend by bundle');
    expect(e.message).toContain('appBundle (bundle id of the advertised app; write "app bundle")');
    expect(e.message).toContain('siteBundle');
    expect(e.suggestions).toEqual(['appBundle', 'siteBundle']);
    expect(compile('spend by app bundle').definition.query.dimensions).toEqual([{ name: 'appBundle' }]);
  });

  it('says honestly that a metric does not exist, with the nearest real ones', () => {
    const e = errorOf('ltv by campaign');
    expect(e.message).toMatch(/^"ltv": the Reporting Service has no LTV/);
    expect(e.message).toContain('eventValue (sum of purchase value of purchase events)');
    expect(findDimension('ltv')).toBeUndefined();
  });

  it('says a dimension word is not a metric, and where it goes', () => {
    expect(errorOf('country').message).toBe(
      '"country" is not a metric: it is a dimension (countryCode: ISO2 country code); put it after "by": spend by countryCode.',
    );
    expect(errorOf('spend by cpi').message).toContain('it is a metric (installsCpi');
  });
});
