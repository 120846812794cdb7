import {
  collectPivotProblems,
  getEnum,
  METRIC_ARGUMENTS,
  METRICS,
  type PivotRequest,
  PivotValidationError,
  validatePivot,
} from '../../../src/reporting/index.js';

const now = new Date('2026-11-20T12:00:00Z');
const base: PivotRequest = {
  from: '2026-11-13',
  to: '2026-11-20',
  dimensions: [{ name: 'countryCode' }],
  metrics: [{ name: 'spend' }],
};

function messages(request: Partial<PivotRequest>, mode: 'sync' | 'async' = 'sync'): string[] {
  return collectPivotProblems({ ...base, ...request }, { now, mode }).problems.map((p) => p.message);
}

/** A valid value for an argument of the given catalog type. */
function sampleValue(type: string): string | number | boolean {
  const bare = type.replace(/!$/, '');
  if (bare === 'Int') return 24;
  if (bare === 'Boolean') return true;
  const values = getEnum(bare)?.values;
  if (values && values.length > 0) return values[values.length - 1] as string;
  throw new Error(`no sample for ${type}`);
}

describe('validatePivot: the per-metric argument table', () => {
  const cases = METRICS.flatMap((metric) =>
    METRIC_ARGUMENTS.map((arg) => [metric.name, arg.name, metric.args.includes(arg.name)] as const),
  );

  it.each(cases)('%s with %s: accepted = %s', (metric, arg, accepted) => {
    const type = METRIC_ARGUMENTS.find((a) => a.name === arg)?.type as string;
    const problems = messages({ metrics: [{ name: metric, args: { [arg]: sampleValue(type) } }] });
    if (accepted) expect(problems).toEqual([]);
    else expect(problems.join('\n')).toContain(`Metric "${metric}" does not accept "${arg}"`);
  });
});

describe('validatePivot', () => {
  it('accepts a plain request and returns no warnings', () => {
    expect(validatePivot(base, { now })).toEqual({ warnings: [] });
  });

  it.each([
    [{ metrics: [{ name: 'instals' }] }, 'Unknown metric "instals". Did you mean "installs"'],
    [{ metrics: [{ name: 'INSTALLSCPI' }] }, 'Did you mean "installsCpi"'],
    [{ dimensions: [{ name: 'contryCode' }] }, 'Unknown dimension "contryCode". Did you mean "countryCode"'],
    [{ dimensions: [{ name: 'date', args: { granularity: 'DAYLY' } }] }, 'Did you mean "DAILY"'],
    [{ dimensions: [{ name: 'date', args: { granulrity: 'DAILY' } }] }, 'Did you mean "granularity"'],
    [{ metrics: [{ name: 'installs', args: { attrTouch: 'CLIK' } }] }, '"CLIK" is not a AttrTouch'],
    [{ metrics: [{ name: 'events', args: { eventId: 2 ** 31 } }] }, 'outside the Int range'],
    [{ metrics: [{ name: 'events', args: { eventId: 1.5 } }] }, 'must be a whole number'],
    [{ metrics: [{ name: 'spend' }, { name: 'spend' }] }, '"spend" appears twice'],
    [{ metrics: [{ name: 'spend', alias: 'my spend' }] }, 'Alias "my spend" must start with a letter'],
    [{ dimensions: [{ name: 'siteBundle' }, { name: 'city' }] }, 'siteBundle cannot be queried together with city'],
    [{ dimensions: [{ name: 'siteName' }, { name: 'adId' }] }, 'siteName cannot be queried together with adId'],
    [{ dimensions: [{ name: 'campaignIdCtvNormalized' }] }, 'applies only when connected-TV data is appended'],
    [
      { dimensions: [{ name: 'campaignId' }], campaignChannel: 'ALL' as const },
      'use "campaignIdCtvNormalized" instead',
    ],
    [{ dimensions: [{ name: 'adId' }], appendCtvData: true }, 'use "adIdCtvNormalized" instead'],
    [{ from: '2026-11-20', to: '2026-11-20' }, 'The range is empty'],
    [{ from: '2026-11-21', to: '2026-11-20' }, 'The range is empty'],
    [{ from: '2026-02-30', to: '2026-03-02' }, 'from must be an ISO 8601 date'],
    [
      { dimensions: [{ name: 'date', args: { granularity: 'HOURLY' } }], from: '2026-10-01' },
      'Hourly granularity is only available for the last 15 days',
    ],
    [{ filter: { contryCode: { equals: 'US' } } }, 'unknown field "contryCode" of Filter. Did you mean "countryCode"'],
    [{ filter: { appId: { equals: 'abc' } } }, 'filter.appId.equals must be a whole number'],
    [{ filter: { appPlatform: { equals: 'WINDOWS' } } }, '"WINDOWS" is not a Platform'],
    [{ cleanup: { impressions: { greaterThan: '1e5' } } }, 'cleanup.impressions.greaterThan must be a whole number'],
    [{ cohortWindow: { amount: 7, period: 'DAYS' } }, 'cohortWindow is used only with a cohortType'],
    [{ dimensions: [], metrics: [] }, 'Choose at least one metric or dimension'],
  ] as Array<[Partial<PivotRequest>, string]>)('rejects %j', (request, expected) => {
    expect(messages(request).join('\n')).toContain(expected);
  });

  it('accepts the CTV fields when CTV data is appended, and campaignChannel supersedes appendCtvData', () => {
    expect(messages({ dimensions: [{ name: 'campaignIdCtvNormalized' }], campaignChannel: 'CTV' })).toEqual([]);
    expect(messages({ dimensions: [{ name: 'campaignId' }], appendCtvData: true, campaignChannel: 'MOBILE' })).toEqual(
      [],
    );
  });

  it('allows hourly granularity within the last 15 days', () => {
    expect(
      messages({
        dimensions: [{ name: 'date', args: { granularity: 'HOURLY' } }],
        from: '2026-11-19',
        to: '2026-11-20',
      }),
    ).toEqual([]);
  });

  it('warns (without failing) when siteBundle reaches past three months', () => {
    const result = validatePivot({ ...base, dimensions: [{ name: 'siteBundle' }], from: '2026-07-01' }, { now });
    expect(result.warnings.join(' ')).toContain('siteBundle is only kept for the last 3 months');
  });

  it('rejects arguments and aliases in async mode, where the input takes plain names', () => {
    expect(messages({ metrics: [{ name: 'installs', args: { attrTouch: 'CLICK' } }] }, 'async').join('\n')).toContain(
      'Async pivots take plain metric names',
    );
    expect(messages({}, 'async')).toEqual([]);
  });

  it('throws the first problem as a typed error carrying path and suggestions', () => {
    const attempt = () => validatePivot({ ...base, metrics: [{ name: 'instals' }] }, { now });
    expect(attempt).toThrow(PivotValidationError);
    try {
      attempt();
    } catch (error) {
      const e = error as PivotValidationError;
      expect(e.code).toBe('PIVOT_INVALID');
      expect(e.path).toBe('metrics[0]');
      expect(e.suggestions).toEqual(['installs']);
      expect(e.userMessage).toContain('Did you mean');
    }
  });

  it('reads from/to without a zone in context.sqlTimeZone', () => {
    // 2026-11-20T01:00 in São Paulo (UTC-3) is 04:00Z; to 03:00Z is before it, so the range is empty.
    const problems = messages({
      from: '2026-11-20T01:00:00',
      to: '2026-11-20T03:00:00Z',
      context: { sqlTimeZone: 'America/Sao_Paulo' },
    });
    expect(problems.join('\n')).toContain('The range is empty');
  });
});
