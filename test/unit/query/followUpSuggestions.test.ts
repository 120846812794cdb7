import { fixesOf, isLanguageWord } from '../../../src/query/followUpSuggestions.js';
import { applyFollowUp, defaultGlossary, QueryError } from '../../../src/query/index.js';

const options = { now: new Date('2026-11-20T12:00:00Z'), defaultTimeZone: 'UTC' };
const glossary = defaultGlossary();

describe('suggestions that mean what the reply says', () => {
  it('never respells a correctly spelt word of the language into another', () => {
    expect(isLanguageWord('period', glossary)).toBe(true);
    expect(isLanguageWord('it', glossary)).toBe(true);
    expect(isLanguageWord('perod', glossary)).toBe(false);
    const spelling = new QueryError('Unknown metric "period". Did you mean "spend"?', 5, 6, ['spend']);
    expect(fixesOf('same period last month', spelling, glossary)).toEqual([]);
    // What a word can mean instead is offered in its place: "ltv" has no field, "eventValue" is nearest.
    const meaning = QueryError.rephrase({ start: 0, end: 3 }, '"ltv": no such field', ['eventValue']);
    expect(fixesOf('ltv instead', meaning, glossary)).toEqual(['eventValue instead']);
  });

  it.each([
    ['spend by campaign MTD', 'same perod last month', ['same period last month']],
    [
      'cpi by campaign',
      'period',
      ['by country', 'by source', 'only iOS', 'last 7 days', 'vs last week', 'top 5', 'why?'],
    ],
    ['cpi by country', 'for us', ['by source', 'only iOS', 'last 7 days', 'vs last week', 'top 5', 'why?']],
  ])('%j › %j suggests %j', (parent, reply, suggestions) => {
    const answer = applyFollowUp(parent, reply, options);
    expect(answer).toEqual({ kind: 'unknown', message: expect.any(String), suggestions });
    expect(JSON.stringify(answer)).not.toContain('same spend');
  });

  it.each([
    ['by country make it blue', 'by country'],
    ['last 7 days and make it pretty', 'last 7 days'],
    ['only iOS for my boss', 'only iOS'],
    ['by country for the period', 'by country'],
    ['split it by os and make it pretty pls', 'split it by os'],
  ])('offers the readable part of %j as it would run: %j, and runs nothing', (reply, readable) => {
    const answer = applyFollowUp('cpi by campaign', reply, options);
    expect(answer).toMatchObject({ kind: 'unknown', suggestions: [readable] });
    if (answer.kind === 'unknown') expect(answer.message).not.toMatch(/Did you mean/);
    expect(applyFollowUp('cpi by campaign', readable, options).kind).toBe('query');
  });

  it('offers no part that leaves out a word turning the meaning around', () => {
    const answer = applyFollowUp('cpi by campaign', 'never iOS blah', options);
    expect(answer).toMatchObject({ kind: 'unknown' });
    if (answer.kind === 'unknown') expect(answer.suggestions).not.toContain('iOS');
  });
});

describe('everyday words in a thread are no country codes', () => {
  it.each(['on it', 'for us', 'without it', 'no it', 'same for it', 'in it'])(
    '%j is not read as a country',
    (reply) => {
      const answer = applyFollowUp('cpi by country yesterday', reply, options);
      expect(answer.kind).toBe('unknown');
      expect(JSON.stringify(answer)).not.toMatch(/countryCode (=|!=) (IT|US)/);
    },
  );

  it.each([
    ['only IT', 'installsCpi by countryCode yesterday where countryCode = IT'],
    ['on IT', 'installsCpi by countryCode yesterday where countryCode = IT'],
    ['in US', 'installsCpi by countryCode yesterday where countryCode = US'],
    ['in italy', 'installsCpi by countryCode yesterday where countryCode = IT'],
    ['only uk', 'installsCpi by countryCode yesterday where countryCode = GB'],
  ])('upper-case codes and names still filter: %j', (reply, text) => {
    expect(applyFollowUp('cpi by country yesterday', reply, options)).toMatchObject({ kind: 'query', text });
  });

  it('drops an upper-case code, and leaves "it" a word', () => {
    expect(applyFollowUp('cpi by country for IT', 'drop IT', options)).toMatchObject({
      text: 'installsCpi by countryCode yesterday',
    });
    expect(applyFollowUp('cpi by country for IT', 'drop it', options).kind).toBe('unknown');
  });
});
