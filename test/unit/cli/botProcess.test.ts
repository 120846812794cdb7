/** How `pivotbot start` makes sure it runs with the bot's node flags and malloc settings. */
import { readFileSync } from 'node:fs';
import {
  BOT_MALLOC_ENV,
  BOT_NODE_FLAGS,
  botRelaunch,
  type RunningProcess,
  unsupportedNode,
} from '../../../src/cli/botProcess.js';

const started = (over: Partial<RunningProcess> = {}): RunningProcess => ({
  argv: ['/usr/bin/node', '/app/bin/pivotbot.js', 'start'],
  execArgv: [],
  execPath: '/usr/bin/node',
  env: { PATH: '/usr/bin', SLACK_BOT_TOKEN: 'xoxb-1' },
  platform: 'linux',
  canExecve: true,
  ...over,
});

describe('botRelaunch', () => {
  it('replaces a bare `pivotbot start` with node, the flags, the same script and arguments, and the malloc settings', () => {
    const relaunch = botRelaunch(
      started({ argv: ['/usr/bin/node', '/app/bin/pivotbot.js', 'start', '--port', '3000'] }),
    );
    expect(relaunch?.args).toEqual([
      '/usr/bin/node',
      ...BOT_NODE_FLAGS,
      '/app/bin/pivotbot.js',
      'start',
      '--port',
      '3000',
    ]);
    expect(relaunch?.env).toEqual({ ...BOT_MALLOC_ENV, PATH: '/usr/bin', SLACK_BOT_TOKEN: 'xoxb-1' });
  });

  it('does nothing once the flags and settings are there, so the replaced process runs the bot', () => {
    const once = botRelaunch(started()) as { args: string[]; env: NodeJS.ProcessEnv };
    const [execPath = '', ...rest] = once.args;
    const flags = rest.slice(0, rest.indexOf('/app/bin/pivotbot.js'));
    expect(
      botRelaunch(started({ execPath, execArgv: flags, env: once.env, argv: [execPath, ...rest.slice(flags.length)] })),
    ).toBeUndefined();
  });

  it('keeps flags and malloc settings it was given, after its own so that they win', () => {
    const relaunch = botRelaunch(started({ execArgv: ['--max-semi-space-size=8'], env: { MALLOC_ARENA_MAX: '4' } }));
    expect(relaunch?.args.slice(1, BOT_NODE_FLAGS.length + 2)).toEqual([...BOT_NODE_FLAGS, '--max-semi-space-size=8']);
    expect(relaunch?.env.MALLOC_ARENA_MAX).toBe('4');
    expect(relaunch?.env.MALLOC_MMAP_THRESHOLD_).toBe(BOT_MALLOC_ENV.MALLOC_MMAP_THRESHOLD_);
  });

  it('leaves other commands, Windows and a node without process.execve alone', () => {
    expect(botRelaunch(started({ argv: ['/usr/bin/node', '/app/bin/pivotbot.js', 'demo'] }))).toBeUndefined();
    expect(botRelaunch(started({ platform: 'win32' }))).toBeUndefined();
    expect(botRelaunch(started({ canExecve: false }))).toBeUndefined();
  });

  it('is what `npm start` relies on: it runs the shim without flags of its own', () => {
    const scripts = (
      JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    expect(scripts.start).toContain('node bin/pivotbot.js start');
  });
});

describe('unsupportedNode', () => {
  it.each(['22.12.0', '22.21.1', '24.0.0', '24.21.0', '26.1.0', '27.0.0'])('runs on %s', (version) => {
    expect(unsupportedNode(version)).toBeUndefined();
  });

  it.each(['20.20.2', '22.11.0', '21.7.3', '18.20.8'])('names the versions it needs on %s', (version) => {
    expect(unsupportedNode(version)).toBe(`pivotbot needs Node.js 22.12 or later (22, 24 or 26); this is v${version}.`);
  });

  it('is what this test runs on', () => {
    expect(unsupportedNode(process.versions.node)).toBeUndefined();
  });
});
