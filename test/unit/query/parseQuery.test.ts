import { parseQuery, QueryError, tokenize } from '../../../src/query/index.js';

describe('tokenize', () => {
  it('keeps the span of every token', () => {
    const text = 'installs(attrTouch=CLICK) by date:daily 2026-11-01..2026-11-08 tz America/Sao_Paulo';
    const tokens = tokenize(text);
    expect(tokens.map((t) => [t.kind, t.text])).toEqual([
      ['word', 'installs'],
      ['punct', '('],
      ['word', 'attrTouch'],
      ['op', '='],
      ['word', 'CLICK'],
      ['punct', ')'],
      ['word', 'by'],
      ['word', 'date'],
      ['punct', ':'],
      ['word', 'daily'],
      ['word', '2026-11-01'],
      ['op', '..'],
      ['word', '2026-11-08'],
      ['word', 'tz'],
      ['word', 'America/Sao_Paulo'],
      ['end', ''],
    ]);
    for (const t of tokens.slice(0, -1)) expect(text.slice(t.start, t.end)).toBe(t.text);
  });

  it('reads numbers, operators and quoted strings', () => {
    expect(tokenize('having spend >= 1.5 and x != "a b" and y <> 3').map((t) => `${t.kind}:${t.text}`)).toEqual([
      'word:having',
      'word:spend',
      'op:>=',
      'number:1.5',
      'word:and',
      'word:x',
      'op:!=',
      'string:a b',
      'word:and',
      'word:y',
      'op:!=',
      'number:3',
      'end:',
    ]);
  });

  it('points at a character it does not know', () => {
    expect(() => tokenize('spend ; installs')).toThrow(expect.objectContaining({ position: 6, length: 1 }));
  });

  it('refuses very long queries', () => {
    expect(() => tokenize('spend '.repeat(500))).toThrow(QueryError);
  });
});

describe('parseQuery', () => {
  it('builds the AST with spans', () => {
    const ast = parseQuery(
      'installs(attrTouch=CLICK) as ci, spend by campaign, date:daily last 14 days where appId=123 and countryCode in (US,BR) having installs > 5 top 10 by spend asc tz UTC csv async vs last week channel all',
    );
    expect(ast).toMatchObject({
      kind: 'adhoc',
      metrics: [
        {
          name: { value: 'installs', start: 0, end: 8 },
          args: [{ name: { value: 'attrTouch' }, value: { value: 'CLICK' } }],
          alias: { value: 'ci' },
        },
        { name: { value: 'spend' } },
      ],
      dimensions: [{ name: { value: 'campaign' } }, { name: { value: 'date' }, granularity: { value: 'daily' } }],
      range: { value: 'last_14_days' },
      where: [
        { field: { value: 'appId' }, op: '=', values: [{ value: 123 }] },
        { field: { value: 'countryCode' }, op: 'in', values: [{ value: 'US' }, { value: 'BR' }] },
      ],
      having: [{ metric: { value: 'installs' }, op: '>', value: { value: 5 } }],
      top: { value: 10 },
      sort: { key: { value: 'spend' }, desc: false },
      timezone: { value: 'UTC' },
      csv: true,
      mode: 'async',
      compare: { value: 'same_period_last_week' },
      channel: { value: 'all' },
    });
  });

  it('parses run and postbacks commands', () => {
    expect(parseQuery('run daily-kpi last week')).toEqual({
      kind: 'run',
      report: { value: 'daily-kpi', start: 4, end: 13 },
      range: { value: 'last_week', start: 14, end: 23 },
    });
    expect(parseQuery('postbacks app:101 keys:a,b track:installs organic yesterday')).toMatchObject({
      kind: 'postbacks',
      appId: { value: 101 },
      keys: [{ value: 'a' }, { value: 'b' }],
      track: { value: 'installs' },
      organic: true,
      range: { value: 'yesterday' },
    });
  });

  it.each([
    ['postbacks keys:a', 'needs an app'],
    ['postbacks app:101', 'needs keys'],
    ['postbacks app:abc keys:a', 'whole number'],
    ['spend where appId', 'Compare appId'],
    ['spend having installs = 3', 'Compare installs with'],
    ['spend by', 'at least one dimension'],
    ['by countryCode', 'Start with at least one metric'],
    ['installs(attrTouch CLICK)', 'attrTouch=VALUE'],
    ['spend from 2026-11-01 until 2026-11-02', 'Expected "to"'],
    ['spend vs tomorrow', 'previous period'],
    ['spend channel tv', 'channel is mobile, ctv or all'],
  ])('rejects %j', (text, message) => {
    expect(() => parseQuery(text)).toThrow(message);
  });
});
