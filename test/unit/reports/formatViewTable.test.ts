import type { ReportView } from '../../../src/reports/index.js';
import { formatCell, formatViewTable } from '../../../src/reports/index.js';

describe('formatCell', () => {
  it.each([
    [1234567, 'count', '1,234,567'],
    [1234.5, 'currency', '1,234.50'],
    [0.01234, 'ratio', '1.23%'],
    [12.34, 'percent', '12.3%'],
    [2.345, 'per_mille', '2.35'],
    ['2026-11-19T00:00:00-03:00', 'time', '2026-11-19'],
    ['2026-11-19T05:00:00Z', 'time', '2026-11-19T05:00:00Z'],
    [null, 'count', ''],
    ['12345678901234567890', 'count', '12,345,678,901,234,567,000'],
    ['US', 'text', 'US'],
  ] as const)('%j as %s → %j', (value, unit, text) => {
    expect(formatCell(value, { unit })).toBe(text);
  });
});

describe('formatViewTable', () => {
  it('aligns columns and adds totals and changes', () => {
    const view: ReportView = {
      reportId: 'x',
      title: 'Spend',
      range: { from: '', to: '', label: 'Yesterday (Thu 19 Nov 2026)', timezone: 'UTC' },
      columns: [
        {
          key: 'countryCode',
          kind: 'dimension',
          name: 'countryCode',
          args: {},
          label: 'Country code',
          unit: 'text',
          polarity: 'neutral',
        },
        {
          key: 'spend',
          kind: 'metric',
          name: 'spend',
          args: {},
          label: 'Spend',
          unit: 'currency',
          polarity: 'neutral',
        },
      ],
      rows: [
        { countryCode: 'US', spend: 1000 },
        { countryCode: 'BR', spend: 5.5 },
      ],
      totalRowCount: 3,
      totals: { spend: 1006 },
      headline: ['spend'],
      comparison: {
        kind: 'previous_period',
        label: 'vs previous period (Wed 18 Nov 2026)',
        range: { from: '', to: '', label: '', timezone: 'UTC' },
        totals: { spend: { previous: 800, absolute: 206, percent: 0.2575 } },
        rows: [],
        previousRows: [],
      },
      mode: 'sync',
      warnings: ['something to know'],
      generatedAt: '2026-11-20T00:00:00Z',
    };
    expect(formatViewTable(view)).toBe(
      [
        'Spend — Yesterday (Thu 19 Nov 2026) (UTC)',
        '',
        'countryCode     spend',
        '-----------  --------',
        'US           1,000.00',
        'BR               5.50',
        '-----------  --------',
        'Total        1,006.00',
        'Change         +25.8%',
        '(vs previous period (Wed 18 Nov 2026))',
        '2 of 3 rows shown',
        'warning: something to know',
        '',
      ].join('\n'),
    );
  });
});
