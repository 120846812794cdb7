/** The catalog is consistent with itself: unique names, real references, explained decisions, working lookups. */
import {
  DIMENSION_RULES,
  DIMENSIONS,
  ENUMS,
  findDimension,
  findMetric,
  findMetricArgument,
  getDimension,
  getEnum,
  getInputType,
  getMetric,
  getMetricArgument,
  INPUT_TYPES,
  METRIC_ARGUMENTS,
  METRICS,
  OPERATIONS,
  OUTPUT_TYPES,
  SCALARS,
} from '../../../src/reporting/catalog/index.js';

function duplicates(names: readonly string[]): string[] {
  return names.filter((name, i) => names.indexOf(name) !== i);
}

/** `[CampaignType!]!` → `CampaignType`. */
function namedType(type: string): string {
  return type.replace(/[[\]!]/g, '');
}

describe('catalog integrity', () => {
  it('has no duplicate name in any list, type, operation or enum', () => {
    const lists: Record<string, readonly { name: string }[]> = {
      DIMENSIONS,
      METRICS,
      METRIC_ARGUMENTS,
      ENUMS,
      INPUT_TYPES,
      OUTPUT_TYPES,
      OPERATIONS,
      SCALARS,
    };
    for (const [label, items] of Object.entries(lists)) {
      expect([label, duplicates(items.map((i) => i.name))]).toEqual([label, []]);
    }
    // Dimensions and metrics share PivotResult, and people type them in any case.
    const fields = [...DIMENSIONS, ...METRICS].map((f) => f.name.toLowerCase());
    expect(duplicates(fields)).toEqual([]);
    expect(duplicates(METRIC_ARGUMENTS.map((a) => a.name.toLowerCase()))).toEqual([]);
    for (const type of [...INPUT_TYPES, ...OUTPUT_TYPES]) {
      expect([type.name, duplicates(type.fields.map((f) => f.name))]).toEqual([type.name, []]);
    }
    for (const owner of [...OPERATIONS, ...DIMENSIONS]) {
      expect([owner.name, duplicates(owner.args.map((a) => a.name))]).toEqual([owner.name, []]);
    }
    for (const e of ENUMS) expect([e.name, duplicates([...e.values])]).toEqual([e.name, []]);
    for (const m of METRICS) expect([m.name, duplicates([...m.args])]).toEqual([m.name, []]);
  });

  it('refers only to types that exist', () => {
    const known = new Set([
      ...SCALARS.map((s) => s.name),
      ...ENUMS.map((e) => e.name),
      ...INPUT_TYPES.map((t) => t.name),
      ...OUTPUT_TYPES.map((t) => t.name),
      'Pivot',
    ]);
    const used = [
      ...DIMENSIONS.flatMap((d) => [d.type, ...d.args.map((a) => a.type)]),
      ...METRICS.map((m) => m.type),
      ...METRIC_ARGUMENTS.map((a) => a.type),
      ...[...INPUT_TYPES, ...OUTPUT_TYPES].flatMap((t) => t.fields.map((f) => f.type)),
      ...OPERATIONS.flatMap((o) => [o.returns, ...o.args.map((a) => a.type)]),
    ];
    expect(used.map(namedType).filter((t) => !known.has(t))).toEqual([]);
  });

  it('gives metrics only real metric arguments, and enum defaults that are values of their enum', () => {
    for (const m of METRICS) {
      expect([m.name, m.args.filter((a) => !getMetricArgument(a))]).toEqual([m.name, []]);
    }
    for (const arg of [...METRIC_ARGUMENTS, ...OPERATIONS.flatMap((o) => o.args)]) {
      const e = getEnum(namedType(arg.type));
      if (e && typeof arg.default === 'string') expect(e.values).toContain(arg.default);
    }
  });

  it('derives ratios only from real metrics, and never marks a ratio additive', () => {
    for (const m of METRICS) {
      if (!m.derivedFrom) continue;
      const { numerator, denominator, scale } = m.derivedFrom;
      expect([m.name, getMetric(numerator)?.name, getMetric(denominator)?.name]).toEqual([
        m.name,
        numerator,
        denominator,
      ]);
      expect(scale === 1 || scale === 1000).toBe(true);
      expect([m.name, m.additive]).toEqual([m.name, false]);
    }
    const perMille = METRICS.filter((m) => m.unit === 'per_mille' || m.name === 'cpm');
    for (const m of perMille) expect([m.name, m.derivedFrom?.scale]).toEqual([m.name, 1000]);
  });

  it('marks counts additive except the unique counts', () => {
    const longs = METRICS.filter((m) => m.type === 'Long');
    const notAdditive = longs.filter((m) => !m.additive).map((m) => m.name);
    expect(notAdditive.sort()).toEqual(['uniqueClicks', 'uniqueEvents', 'uniqueImpressions']);
    for (const name of ['spend', 'billableSpend', 'eventValue', 'keyMetric', 'keyMetricVtaImp', 'keyMetricVtaTotal']) {
      expect([name, getMetric(name)?.additive]).toEqual([name, true]);
    }
    for (const m of METRICS.filter((x) => x.unit === 'currency' && x.derivedFrom)) {
      expect([m.name, m.polarity]).toEqual([m.name, 'lower_is_better']);
    }
  });

  it('explains every decision with a note', () => {
    const decided = [
      ...ENUMS,
      ...INPUT_TYPES,
      ...OUTPUT_TYPES,
      ...METRIC_ARGUMENTS,
      ...OPERATIONS.flatMap((o) => o.args),
    ].filter((item) => item.provenance === 'decided');
    expect(decided.length).toBeGreaterThan(0);
    for (const item of decided) expect([item.name, Boolean(item.note?.trim())]).toEqual([item.name, true]);
    for (const d of DIMENSIONS.filter((x) => x.ctvReplacement)) {
      expect([d.name, Boolean(d.note)]).toEqual([d.name, true]);
    }
    for (const name of ['vtaShare', 'goalDistancePerc', 'bucket']) {
      expect([name, Boolean(getMetric(name)?.note)]).toEqual([name, true]);
    }
  });

  it('flags the four CTV-normalized fields and maps the three integer ids to them', () => {
    expect(DIMENSIONS.filter((d) => d.ctvOnly).map((d) => d.name)).toEqual(
      DIMENSIONS.filter((d) => d.name.endsWith('CtvNormalized')).map((d) => d.name),
    );
    expect(DIMENSIONS.filter((d) => d.ctvOnly)).toHaveLength(4);
    const replaced = DIMENSIONS.filter((d) => d.ctvReplacement).map((d) => [d.name, d.ctvReplacement]);
    expect(replaced).toEqual([
      ['adId', 'adIdCtvNormalized'],
      ['campaignId', 'campaignIdCtvNormalized'],
      ['groupId', 'groupIdCtvNormalized'],
    ]);
    for (const [, target] of replaced) expect(getDimension(target ?? '')?.ctvOnly).toBe(true);
  });

  it('names only real dimensions in its rules', () => {
    for (const rule of DIMENSION_RULES) {
      expect([...rule.left, ...rule.right].filter((name) => !getDimension(name))).toEqual([]);
    }
  });
});

describe('catalog lookups', () => {
  it('finds by exact name with get…, and only by exact name', () => {
    expect(getDimension('countryCode')?.type).toBe('String');
    expect(getDimension('countrycode')).toBeUndefined();
    expect(getMetric('installsCpi')?.unit).toBe('currency');
    expect(getMetric('installscpi')).toBeUndefined();
    expect(getMetricArgument('attrTouch')?.default).toBe('ALL');
    expect(getEnum('Granularity')?.values).toContain('DAILY');
    expect(getInputType('Filter')?.fields.length).toBeGreaterThan(20);
    expect(getInputType('Nope')).toBeUndefined();
  });

  it('finds by name ignoring case with find…', () => {
    expect(findDimension('COUNTRYCODE')?.name).toBe('countryCode');
    expect(findMetric('installscpi')?.name).toBe('installsCpi');
    expect(findMetricArgument('ATTRTOUCH')?.name).toBe('attrTouch');
    expect(findMetric('instals')).toBeUndefined();
  });

  it('returns every catalog entry from its lookup', () => {
    for (const d of DIMENSIONS) expect(findDimension(d.name.toUpperCase())).toBe(d);
    for (const m of METRICS) expect(findMetric(m.name.toUpperCase())).toBe(m);
    for (const a of METRIC_ARGUMENTS) expect(findMetricArgument(a.name)).toBe(a);
  });
});
