import fc from 'fast-check';
import { type Block, blockCharacters, fitMessage, fitText, SLACK_LIMITS } from '../../../src/render/index.js';
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

describe('fitText', () => {
  it.each([
    ['short', 10, 'short'],
    ['exactly10!', 10, 'exactly10!'],
    ['a longer text', 8, 'a longe…'],
    // Slack counts UTF-16 code units; a surrogate pair is never split.
    ['😀😀😀😀', 4, '😀…'],
    ['Alert for <#C123|ua-daily> :rotating_light:', 20, 'Alert for…'],
    ['Ping <!here> now', 9, 'Ping…'],
    ['Spend up :rocket: today', 14, 'Spend up…'],
    ['See <https://example.com/r/1|the report> here', 30, 'See…'],
    ['a &lt;b&gt; c', 5, 'a…'],
    ['<@U123> said hi', 8, '<@U123>…'],
    // `:30:` could be a shortcode too (`:100:` is one): the cut stays clear of both.
    ['at 10:30:rocket: go', 15, 'at 10…'],
  ])('%j to %i → %j', (text, max, expected) => {
    expect(fitText(text, max)).toBe(expected);
  });

  /** What a Slack text is made of: words, and pieces that must stay whole. */
  const word = fc.stringMatching(/^[a-zA-Z0-9 .,:&*_\n😀é-]{1,12}$/u);
  const whole = fc.oneof(
    fc.stringMatching(/^[A-Z0-9]{3,11}$/).map((id) => `<@U${id}>`),
    fc
      .tuple(fc.stringMatching(/^[A-Z0-9]{3,11}$/), fc.stringMatching(/^[a-z-]{1,20}$/))
      .map(([id, n]) => `<#C${id}|${n}>`),
    fc.constantFrom('<!here>', '<!channel>', '&lt;', '&gt;', '&amp;'),
    fc.tuple(fc.webUrl(), word).map(([url, label]) => `<${url}|${label}>`),
    fc.stringMatching(/^[a-z0-9_+-]{1,20}$/).map((name) => `:${name}:`),
  );
  const piece = fc.oneof(
    word.map((text) => ({ text, whole: false })),
    whole.map((text) => ({ text, whole: true })),
  );
  const pieces = fc.array(piece, { maxLength: 30 });

  it('returns at most max characters: the text itself, or a prefix of it and an ellipsis', () => {
    fc.assert(
      fc.property(pieces, fc.integer({ min: 1, max: 400 }), (parts, max) => {
        const text = parts.map((p) => p.text).join('');
        const fitted = fitText(text, max);
        expect(fitted.length).toBeLessThanOrEqual(max);
        if (text.length <= max) expect(fitted).toBe(text);
        else {
          expect(fitted.endsWith('…')).toBe(true);
          expect(text.startsWith(fitted.slice(0, -1))).toBe(true);
        }
      }),
    );
  });

  it('never cuts a mention, link, entity or emoji shortcode in half, nor a surrogate pair', () => {
    fc.assert(
      fc.property(pieces, fc.integer({ min: 1, max: 400 }), (parts, max) => {
        const text = parts.map((p) => p.text).join('');
        const fitted = fitText(text, max);
        const kept = fitted.endsWith('…') && fitted !== text ? fitted.slice(0, -1) : fitted;
        let at = 0;
        for (const part of parts) {
          const end = at + part.text.length;
          // A whole piece is either kept entirely or not started.
          if (part.whole && at < kept.length) expect(kept.length).toBeGreaterThanOrEqual(end);
          at = end;
        }
        expect(kept.split('<').length).toBe(kept.split('>').length);
        expect(kept).not.toMatch(/<[^>]*$/);
        expect(kept).not.toMatch(/[\ud800-\udbff]$/);
      }),
    );
  });
});
