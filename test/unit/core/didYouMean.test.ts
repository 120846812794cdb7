import { didYouMean, editDistance, suggest } from '../../../src/core/index.js';

describe('suggest', () => {
  it.each([
    ['instals', ['installs', 'impressions', 'clicks'], ['installs']],
    ['INSTALLS', ['installs', 'installsCpi'], ['installs', 'installsCpi']],
    ['contry', ['country', 'countryCode', 'city'], ['country', 'city']],
    ['spned', ['spend', 'simps'], ['spend']],
    ['zzzzzz', ['spend', 'clicks'], []],
  ])('suggests for %s', (input, candidates, expected) => {
    expect(suggest(input, candidates)).toEqual(expected);
  });

  it('counts a transposition as one edit', () => {
    expect(editDistance('spned', 'spend')).toBe(1);
    expect(editDistance('abc', 'abc')).toBe(0);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('formats suggestions as a sentence', () => {
    expect(didYouMean([])).toBe('');
    expect(didYouMean(['a'])).toBe(' Did you mean "a"?');
    expect(didYouMean(['a', 'b', 'c'])).toBe(' Did you mean "a", "b" or "c"?');
  });
});
