import { decodeSlackText } from '../../../src/slack/receiver/decodeSlackText.js';
import { loadCorpus, score, scoreLine } from '../../support/independentCorpora.js';

const decode = (wire: string) => decodeSlackText(wire).text;

describe.each([
  ['independent', 'slash-queries', 150],
  ['independent', 'followups', 150],
  ['heldout', 'slash-queries', 80],
  ['heldout', 'followups', 80],
] as const)('the %s corpus %s', (set, name, size) => {
  const entries = loadCorpus(name, set);

  it(`has ${size} entries, each expecting a query or a refusal`, () => {
    expect(entries).toHaveLength(size);
    for (const e of entries) expect([e.query, e.refuse].filter((o) => o !== undefined)).toHaveLength(1);
  });

  it('reads Slack’s wire text: at least 95 % exact and no wrong query', () => {
    const s = score(entries, decode);
    const lines = s.graded
      .filter((g) => g.verdict !== 'exact')
      .map(
        (g) =>
          `  ${g.verdict === 'wrong' ? '✗' : '·'} ${g.entry.parent ? `${g.entry.parent} ⟶ ` : ''}${g.entry.text}: ${g.detail}`,
      );
    process.stdout.write(`${set} ${scoreLine(name, s)}\n${lines.join('\n')}\n`);
    expect(s.wrong).toBe(0);
    expect(s.exact / s.n).toBeGreaterThanOrEqual(0.95);
  });
});
