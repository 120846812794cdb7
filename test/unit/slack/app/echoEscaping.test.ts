/**
 * What the bot quotes back of what someone typed is escaped: a reply holding `<!here>` or `<@U1>`
 * is refused without notifying the channel or the user again (Slack's formatting reference,
 * "Escaping").
 */
import { describeFailure, silentLogger } from '../../../../src/core/index.js';
import { QueryError } from '../../../../src/query/index.js';
import type { SlackMessage } from '../../../../src/render/index.js';
import { failureMessage } from '../../../../src/slack/app/answers.js';
import { suggestionMessage } from '../../../../src/slack/app/Conversation.js';

const MENTIONS = /<!here>|<!channel>|<@U1>/;

/** The notification text and every mrkdwn text object. */
function mrkdwnTexts(message: SlackMessage): string[] {
  const texts = [message.text];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) for (const v of value) walk(v);
    else if (value && typeof value === 'object') {
      const o = value as Record<string, unknown>;
      if (o.type === 'mrkdwn' && typeof o.text === 'string') texts.push(o.text);
      for (const v of Object.values(o)) walk(v);
    }
  };
  walk(message.blocks);
  return texts;
}

describe('a refused reply is quoted back escaped', () => {
  it('in a thread: the reason and the suggestions built from the reply', () => {
    const message = suggestionMessage('"<!here>" is no metric, dimension, filter or range I know.', [
      'only US <@U1>',
      'cpi `x` <!here>',
    ]);
    const texts = mrkdwnTexts(message);
    expect(texts.join('\n')).toContain('&lt;!here&gt;');
    expect(texts.join('\n')).toContain('&lt;@U1&gt;');
    for (const text of texts) expect(text).not.toMatch(MENTIONS);
  });

  it('after /pivot: the query shown with its caret, and the notification text', () => {
    const typed = 'cpi by country <!here> <@U1>';
    const error = QueryError.at({ start: 15, end: 16 }, 'Unexpected character "<" in <!here>.', []);
    const failure = describeFailure(error, { logger: silentLogger(), what: 'test', newRef: () => 'ref1' });
    const texts = mrkdwnTexts(failureMessage(error, typed, failure));
    expect(texts.join('\n')).toContain('&lt;!here&gt; &lt;@U1&gt;');
    for (const text of texts) expect(text).not.toMatch(MENTIONS);
  });

  it('in any other failure: the user message it quotes, in blocks and notification text', () => {
    const error = new Error('internal');
    const failure = describeFailure(error, { logger: silentLogger(), what: 'test', newRef: () => 'ref1' });
    const message = failureMessage(error, '<!channel>', { ...failure, text: 'Unknown report "<!channel>".' });
    for (const text of mrkdwnTexts(message)) expect(text).not.toMatch(MENTIONS);
  });
});
