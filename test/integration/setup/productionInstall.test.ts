/**
 * A production install starts (issue 35, item 4): what a platform does (Heroku's Node build:
 * install everything, `npm run build`, prune the development dependencies, then `web: npm start`),
 * on a fresh clone holding only committed files. `npm start` must run only node: with TypeScript
 * pruned, a `start` that builds fails with `tsc: not found`.
 *
 * Two stand-ins keep it offline and quick:
 * - `npm ci` is a copy of this checkout's node_modules (hard links, the same packages the lockfile
 *   names; `npm prune --omit=dev` then works offline). The copy's hidden lockfile is a real copy,
 *   not a link, since npm rewrites it.
 * - The Node. Once pruned, the development dependency `node` (npm's packaging of Node 24, which
 *   runs every npm script of a full install) is gone, so `npm start` runs on the machine's Node, as
 *   it does on a platform. This machine's first Node may be older than `engines` (Node 20 here);
 *   the test saves the dependency's binary aside before the prune and puts it first on PATH, as a
 *   platform that provides a supported Node does (docs/deploy.md says which).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { copyFile, link, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { SlackTestServer } from '../../support/slackTestServer.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../../..');

describe('a production install (fresh clone, build, prune, npm start)', () => {
  let dir: string;
  let slack: SlackTestServer;
  let bot: ChildProcess | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pivotbot-prod-install-'));
    slack = await new SlackTestServer().start();
  });
  afterAll(async () => {
    // The whole process group: npm, its shell and the bot.
    if (bot?.pid !== undefined && bot.exitCode === null && bot.signalCode === null) process.kill(-bot.pid, 'SIGKILL');
    await slack.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('reaches /healthz on the pruned install', async () => {
    const app = join(dir, 'app');
    await run('git', ['clone', '--quiet', '--no-hardlinks', ROOT, app]);
    try {
      await run('cp', ['-al', join(ROOT, 'node_modules'), join(app, 'node_modules')]);
    } catch {
      await run('cp', ['-a', join(ROOT, 'node_modules'), join(app, 'node_modules')]);
    }
    const hiddenLock = join(app, 'node_modules', '.package-lock.json');
    await rm(hiddenLock, { force: true });
    await copyFile(join(ROOT, 'node_modules', '.package-lock.json'), hiddenLock).catch(() => undefined);

    // The platform's Node: the dependency's, saved aside before the prune removes it.
    const platformBin = join(dir, 'platform-bin');
    await mkdir(platformBin);
    await link(join(app, 'node_modules', 'node', 'bin', 'node'), join(platformBin, 'node')).catch(() =>
      copyFile(join(app, 'node_modules', 'node', 'bin', 'node'), join(platformBin, 'node')),
    );
    const env = { ...process.env, PATH: `${platformBin}:${process.env.PATH}`, npm_config_update_notifier: 'false' };
    const npm = (...args: string[]) => run('npm', [...args, '--no-audit', '--no-fund', '--offline'], { cwd: app, env });

    await npm('run', 'build', '--silent');
    await npm('prune', '--omit=dev');
    const names = async (folder: string) => (await run('ls', [folder])).stdout.split('\n');
    expect(await names(join(app, 'node_modules'))).not.toContain('typescript');
    expect(await names(join(app, 'node_modules'))).not.toContain('node');
    expect(JSON.parse(await readFile(join(app, 'package.json'), 'utf8')).scripts.start).toBe(
      'node bin/pivotbot.js start',
    );

    // No REPORTING_* variables: the embedded sandbox, whose DuckDB is a production dependency.
    bot = spawn('npm', ['start', '--silent'], {
      cwd: app,
      env: {
        PATH: env.PATH,
        HOME: process.env.HOME,
        LOG_LEVEL: 'warn',
        SLACK_BOT_TOKEN: 'xoxb-prod-install',
        SLACK_SIGNING_SECRET: 'prod-install-secret',
        SLACK_API_URL: slack.apiUrl,
        PORT: '0',
        PIVOTBOT_STORE: join(dir, 'store.json'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const child = bot;
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += String(chunk);
    });
    let port = 0;
    const seen: string[] = [];
    for await (const line of createInterface({ input: child.stdout as NodeJS.ReadableStream })) {
      seen.push(line);
      const match = /listening on port (\d+)/.exec(line);
      if (match) {
        port = Number(match[1]);
        break;
      }
    }
    if (port === 0) throw new Error(`npm start never listened; stdout:\n${seen.join('\n')}\nstderr:\n${stderr}`);
    child.stdout?.resume();
    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(res.status).toBe(200);

    process.kill(-(child.pid as number), 'SIGTERM');
    await exited;
  }, 300_000);
});
