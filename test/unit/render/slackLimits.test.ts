import { type Block, blockCharacters, fitMessage, SLACK_LIMITS, truncateText } from '../../../src/render/index.js';
import { slackLimitViolations } from '../../support/renderLimits.js';

const section = (text: string): Block => ({ type: 'section', text: { type: 'mrkdwn', text } });
const actions: Block = {
  type: 'actions',
  elements: [{ type: 'button', text: { type: 'plain_text', text: 'Re-run' }, action_id: 'pivot_rerun' }],
};
const table = (rows: number, cells: number, pad = ''): Block => ({
  type: 'table',
  rows: Array.from({ length: rows }, (_, r) =>
    Array.from({ length: cells }, (_, c) => ({ type: 'raw_text' as const, text: `${r}:${c}${pad}` })),
  ),
});

describe('fitMessage', () => {
  it('keeps at most 50 blocks, keeps the buttons, and says what was cut', () => {
    const blocks = [...Array.from({ length: 70 }, (_, i) => section(`row ${i}`)), actions];
    const { message, cuts } = fitMessage({ text: 't', blocks }, { csvName: 'r.csv' });
    expect(message.blocks.length).toBeLessThanOrEqual(SLACK_LIMITS.blocksPerMessage);
    expect(message.blocks.at(-1)).toEqual(actions);
    expect(cuts).toEqual(['22 blocks']);
    expect(JSON.stringify(message.blocks.at(-2))).toContain(
      "Cut to fit Slack's limits (22 blocks). The full result is in the CSV `r.csv`.",
    );
    expect(slackLimitViolations(message)).toEqual([]);
  });

  it('cuts sections to 3,000 characters and code blocks stay closed', () => {
    const { message } = fitMessage({
      text: 't',
      blocks: [section('a'.repeat(5000)), section(`\`\`\`\n${'b'.repeat(5000)}\n\`\`\``)],
    });
    const texts = message.blocks
      .filter((b) => b.type === 'section')
      .map((b) => (b.type === 'section' ? (b.text?.text ?? '') : ''));
    expect(texts.every((t) => t.length <= 3000)).toBe(true);
    expect(texts[1]?.endsWith('```')).toBe(true);
  });

  it('keeps 10 fields and a header of 150 characters', () => {
    const fields = Array.from({ length: 14 }, (_, i) => ({ type: 'mrkdwn' as const, text: `f${i}` }));
    const { message, cuts } = fitMessage({
      text: 't',
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: 'h'.repeat(400) } },
        { type: 'section', fields },
      ],
    });
    expect(slackLimitViolations(message)).toEqual([]);
    expect(cuts).toEqual(['a long title', '4 fields']);
  });

  it('cuts a table to 100 rows of 20 cells, and turns a second table into monospace text', () => {
    const { message, cuts } = fitMessage({ text: 't', blocks: [table(150, 25), table(3, 2)] });
    const [first, second] = message.blocks;
    expect(first?.type === 'table' && first.rows.length).toBe(100);
    expect(first?.type === 'table' && first.rows[0]?.length).toBe(20);
    expect(second?.type).toBe('section');
    expect(cuts).toEqual(expect.arrayContaining(['table rows beyond 99', 'table columns beyond 20']));
  });

  it('stays under the size at which Slack answers msg_blocks_too_long, trimming the table first', () => {
    const { message, cuts } = fitMessage({ text: 't', blocks: [table(100, 20, '-padding'), actions] });
    expect(blockCharacters(message.blocks)).toBeLessThanOrEqual(SLACK_LIMITS.blockCharacters);
    expect(message.blocks[0]?.type).toBe('table');
    expect(cuts.some((c) => /table rows/.test(c))).toBe(true);
  });

  it('leaves a message that fits untouched', () => {
    const blocks = [section('hello'), actions];
    expect(fitMessage({ text: 't', blocks })).toEqual({ message: { text: 't', blocks }, cuts: [] });
  });
});

describe('truncateText', () => {
  it.each([
    ['short', 10, 'short'],
    ['exactly10!', 10, 'exactly10!'],
    ['a longer text', 8, 'a longe…'],
    ['😀😀😀😀', 3, '😀😀…'],
  ])('%j to %i → %j', (text, max, expected) => {
    expect(truncateText(text, max)).toBe(expected);
  });
});
