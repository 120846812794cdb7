import { adhocMessage, type SectionBlock } from '../../../src/render/index.js';
import { topNView } from '../../support/renderFixtures.js';

const firstSection = (view: ReturnType<typeof topNView>, query: string) =>
  (adhocMessage(view, { query, userId: 'U1' }).blocks[0] as SectionBlock).text?.text ?? '';

describe('the ad-hoc answer', () => {
  it('says first what was understood, in the catalog words, then what was asked', () => {
    const view = { ...topNView(), description: 'installsCpi by countryCode, yesterday (UTC)' };
    expect(firstSection(view, 'cpi by country yesterday').split('\n')).toEqual([
      '`installsCpi by countryCode, yesterday (UTC)`',
      '<@U1> asked `cpi by country yesterday`',
    ]);
  });

  it('keeps one line when the view has no description', () => {
    const { description: _none, ...view } = topNView();
    expect(firstSection(view, 'spend by country')).toBe('<@U1> asked `spend by country`');
  });
});
