/**
 * Random query text for the fuzz test (test/unit/query/fuzz.test.ts) and bench/query's slowest
 * input: valid queries with one edit, shuffled query words and operators, and any text.
 */
import fc from 'fast-check';

export const VALID_QUERIES = [
  'spend installs installsCpi by countryCode yesterday',
  'installs(attrTouch=CLICK) as clickInstalls, spend by campaign, date:daily last 14 days where appId=123 and countryCode in (US,BR) top 10 by spend',
  'impressions clicks ctr by siteBundle last 7 days having impressions > 10000 tz America/Sao_Paulo csv',
  'run daily-kpi last_7_days',
  'postbacks app:101 keys:conversion_value,country track:installs revenue last 3 days',
  'spend by campaign last week vs previous period channel all async',
  'events(eventId=5, attrSource=SKAD) eventsCpa by app from 2026-11-01 to 2026-11-08 where campaignType not in (RTGT)',
  // The trade's phrasings (issue 15).
  "what's the cpi by country for US and BR last week?",
  'top 5 campaigns by spend with installs in Brazil yesterday vs same day last week',
  'worst 3 exchanges by roas L30D excluding US, CN on ios',
  'daily spend and click installs per campaign for campaigns 1001 and 1002 QTD WoW',
  'spend & cost per install by ad set since 2026-11-01 ctv and mobile',
];
const WORDS = [
  ...VALID_QUERIES.flatMap((q) => q.split(/\s+/)),
  '(',
  ')',
  ',',
  ':',
  '=',
  '!=',
  '>',
  '>=',
  '..',
  '"',
  "'",
  'last',
  '99999999999',
  '-1',
  '1e9',
  'in',
  'not',
  'and',
  'by',
  'as',
  'top',
  'tz',
  'date:',
  '\u0000',
  '😀',
  'İ',
];

/** A valid query with one edit: delete, insert, replace or duplicate a span. */
const mutated = fc
  .tuple(
    fc.constantFrom(...VALID_QUERIES),
    fc.nat(),
    fc.nat({ max: 12 }),
    fc.constantFrom('delete', 'insert', 'replace', 'duplicate'),
    fc.string({ maxLength: 6 }),
  )
  .map(([query, at, length, op, text]) => {
    const i = at % (query.length + 1);
    if (op === 'delete') return query.slice(0, i) + query.slice(i + length);
    if (op === 'insert') return query.slice(0, i) + text + query.slice(i);
    if (op === 'replace') return query.slice(0, i) + text + query.slice(i + text.length);
    return query.slice(0, i) + query.slice(i, i + length) + query.slice(i);
  });

const shuffledWords = fc.array(fc.constantFrom(...WORDS), { maxLength: 25 }).map((w) => w.join(' '));
const anyText = fc.string({ maxLength: 200, unit: 'binary' });

/** Any of the three kinds of random query text. */
export const randomQueryText = fc.oneof(mutated, shuffledWords, anyText);
