import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { parse } from 'yaml';
import {
  applyFollowUp,
  compileQuery,
  defaultGlossary,
  FOLLOW_UP_EXAMPLES,
  parseWorkspaceGlossary,
  type QueryOptions,
} from '../../../src/query/index.js';

const options: QueryOptions = { now: new Date('2026-11-20T12:00:00Z'), defaultTimeZone: 'UTC' };

describe('applyFollowUp', () => {
  it('answers the whole refined query, what it understood in catalog terms, and what changed', () => {
    expect(applyFollowUp('cpi by country yesterday', 'by source instead', options)).toEqual({
      kind: 'query',
      text: 'installsCpi by source yesterday',
      understood: 'installsCpi by source, yesterday (UTC)',
      changed: 'by source (was countryCode)',
    });
  });

  it('states the range in the default zone of the workspace', () => {
    const answer = applyFollowUp('spend', 'last 7 days', { ...options, defaultTimeZone: 'Europe/Berlin' });
    expect(answer).toMatchObject({ understood: 'spend, last 7 days (Europe/Berlin)' });
  });

  it('keeps a since range relative down the thread', () => {
    const answer = applyFollowUp('spend since 2026-11-01', 'by country', options);
    expect(answer).toMatchObject({ kind: 'query', text: 'spend by countryCode since 2026-11-01' });
  });

  it('says when a reply changes nothing', () => {
    expect(applyFollowUp('cpi by country', 'by country', options)).toMatchObject({
      kind: 'query',
      changed: 'nothing: the same query',
    });
  });

  it('asks for CSV and charts for this answer only: the text carries no flag down the thread', () => {
    const first = applyFollowUp('spend by campaign', 'as csv', options);
    expect(first).toMatchObject({ kind: 'query', csv: true, changed: 'as CSV' });
    if (first.kind !== 'query') throw new Error('not a query');
    expect(first.text).not.toMatch(/csv/);
    expect(applyFollowUp(first.text, 'daily', options)).not.toHaveProperty('csv');
  });

  it('explains the refined query on "why" with an edit', () => {
    expect(applyFollowUp('spend by country last 7 days', 'why on android?', options)).toEqual({
      kind: 'why',
      text: 'spend by countryCode last_7_days where appPlatform = ANDROID',
    });
  });

  it('never guesses: a word it cannot read gets the replies that work, each tried on the parent', () => {
    const answer = applyFollowUp('spend by country yesterday', 'make it pop', options);
    expect(answer.kind).toBe('unknown');
    if (answer.kind !== 'unknown') return;
    expect(answer.message).toContain('"make it pop"');
    expect(answer.suggestions.length).toBeGreaterThan(0);
    for (const s of answer.suggestions) {
      expect(FOLLOW_UP_EXAMPLES).toContain(s);
      expect(applyFollowUp('spend by country yesterday', s, options).kind).not.toBe('unknown');
    }
    // "by country" would change nothing here, so it is not offered.
    expect(answer.suggestions).not.toContain('by country');
  });

  it('says what a refined query the service refuses would have been, and why', () => {
    const answer = applyFollowUp('spend by publisher', 'also by city', options);
    expect(answer).toMatchObject({ kind: 'unknown' });
    if (answer.kind === 'unknown') expect(answer.message).toContain('spend by siteName, city yesterday');
  });

  it('does not sort by a dimension the query does not have, nor drop the last metric', () => {
    const sort = applyFollowUp('spend by country', 'sort by campaign', options);
    expect(sort).toMatchObject({ kind: 'unknown' });
    if (sort.kind === 'unknown') expect(sort.message).toContain('also by campaign');
    expect(applyFollowUp('spend by country', 'drop spend', options)).toMatchObject({ kind: 'unknown' });
  });

  it('refuses a parent it cannot read, without a guess', () => {
    expect(applyFollowUp('', 'by country', options)).toMatchObject({ kind: 'unknown', suggestions: [] });
  });

  it('changes only the range of a named report', () => {
    expect(applyFollowUp('run daily-kpi', 'last week', options)).toMatchObject({
      kind: 'query',
      text: 'run daily-kpi last_week',
      changed: 'range last week (was its own)',
    });
    expect(applyFollowUp('run daily-kpi', 'only iOS', options)).toMatchObject({ kind: 'unknown' });
  });

  it('reads the workspace glossary through the options', () => {
    expect(applyFollowUp('installs', 'purchases too', options).kind).toBe('unknown');
    const workspace = parseWorkspaceGlossary(readFileSync('reports/glossary.yaml', 'utf8'), 'reports/glossary.yaml');
    const glossary = defaultGlossary().with(workspace.terms);
    expect(applyFollowUp('installs', 'purchases too', { ...options, glossary })).toMatchObject({
      kind: 'query',
      text: 'installs, events(eventId=1014) as purchases yesterday',
    });
  });
});

describe('applyFollowUp on any text', () => {
  const corpus = parse(readFileSync('test/fixtures/followups.yaml', 'utf8')) as Array<{
    parent: string;
    reply?: string;
    chain?: string[];
  }>;
  const replies = corpus.flatMap((e) => e.chain ?? [e.reply ?? '']);
  const parents = [...new Set(corpus.map((e) => e.parent))];
  const words = [
    ...new Set(replies.flatMap((r) => r.split(/\s+/))),
    '(',
    ')',
    '"',
    '..',
    '=',
    '-',
    '99999999999',
    '🙂',
  ];

  it('never throws, and every query it answers compiles', () => {
    const reply = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.array(fc.constantFrom(...words), { maxLength: 6 }).map((w) => w.join(' ')),
      fc
        .tuple(fc.constantFrom(...replies), fc.nat(), fc.string({ maxLength: 3 }))
        .map(([r, i, s]) => r.slice(0, i % (r.length + 1)) + s + r.slice(i % (r.length + 1))),
    );
    fc.assert(
      fc.property(fc.constantFrom(...parents), reply, (parent, text) => {
        const answer = applyFollowUp(parent, text, options);
        if (answer.kind !== 'unknown') expect(() => compileQuery(answer.text, options)).not.toThrow();
        else expect(answer.message.length).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });
});

describe('the follow-ups of docs/query-language.md', () => {
  const doc = readFileSync('docs/query-language.md', 'utf8');
  const table = /### What a reply can say\n([\s\S]*?)\nThe rules:/.exec(doc)?.[1] ?? '';
  const replies = table
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...(line.split(' | ')[0] ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? ''));
  const parent = 'spend, installs by country, os daily last 7 days for US and BR on iOS top 5 by spend vs last week';

  it('are there', () => {
    expect(replies.length).toBeGreaterThan(60);
  });

  const workspace = parseWorkspaceGlossary(readFileSync('reports/glossary.yaml', 'utf8'), 'reports/glossary.yaml');
  const glossary = defaultGlossary().with(workspace.terms);

  it.each(replies)('%j is read on a parent that has every clause', (reply) => {
    expect(applyFollowUp(parent, reply, { ...options, glossary }).kind).not.toBe('unknown');
  });
});
