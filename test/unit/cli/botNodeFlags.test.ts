/** The bot's V8 flags (`BOT_NODE_FLAGS`) are the ones `npm start` gives node. */
import { readFileSync } from 'node:fs';
import { BOT_NODE_FLAGS } from '../../../src/cli/startBot.js';

describe('BOT_NODE_FLAGS', () => {
  it('are on the command line of `npm start`, before the script', () => {
    const scripts = (
      JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    const start = scripts.start ?? '';
    expect(start).toContain(`node ${BOT_NODE_FLAGS.join(' ')} bin/pivotbot.js start`);
    expect(BOT_NODE_FLAGS.length).toBeGreaterThan(0);
  });
});
