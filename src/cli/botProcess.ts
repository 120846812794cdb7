/**
 * How the bot's process is started: V8 flags and glibc malloc settings that must be in place before
 * node starts (V8 sizes its heap at start-up, glibc reads its settings at the first allocation).
 * `bin/pivotbot.js start` applies them by replacing its own process (`process.execve`, same pid)
 * when they are missing, so `npm start`, `npx pivotbot start`, a container's command or a service
 * unit all run the bot the same way. This module imports nothing: the shim loads it before the bot.
 */

/**
 * The V8 flags the bot runs with. Node 22+ lets each young-generation semi-space grow to 64 MiB,
 * and the bot's steady stream of small requests filled it: 2 MiB semi-spaces made the bot ~100 MiB
 * smaller at its peak for the same acks, and `--optimize-for-size` (a heap that grows less
 * eagerly) took its peak in bench/scheduler from 233–242 to 173 MiB at 1–2 % of the burst's time
 * (docs/benchmarks.md, "Footprint").
 */
export const BOT_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=2', '--optimize-for-size'];

/**
 * glibc malloc settings of the bot (the chart process has the same): two arenas instead of eight
 * per core for a process whose JavaScript runs on one thread, and a fixed mmap threshold so large
 * freed blocks go back to the system (docs/benchmarks.md, "Footprint": 157 → 146 MiB at the peak).
 * A value already in the environment is kept.
 */
export const BOT_MALLOC_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '131072',
};

/**
 * Why this node cannot run pivotbot (older than 22.12, the oldest release of package.json's
 * engines), or undefined when it can.
 *
 * @example unsupportedNode('20.20.2'); // 'pivotbot needs Node.js 22.12 or later (22, 24 or 26); this is v20.20.2.'
 */
export function unsupportedNode(version: string): string | undefined {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (major > 22 || (major === 22 && minor >= 12)) return undefined;
  return `pivotbot needs Node.js 22.12 or later (22, 24 or 26); this is v${version}.`;
}

/** What `botRelaunch` needs to know of the running process. */
export interface RunningProcess {
  argv: readonly string[];
  execArgv: readonly string[];
  execPath: string;
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  /** Whether this node has `process.execve` (22.15, 23.11 and later). */
  canExecve: boolean;
}

/**
 * The command line and environment to run `pivotbot start` with, or undefined when this process
 * already has them (or cannot be replaced: Windows, or a node without `process.execve`, where the
 * bot runs as it was started). The bot's flags come before the ones it was given, so a flag given
 * on the command line wins; malloc settings already in the environment are kept.
 *
 * @example const relaunch = botRelaunch({ argv: process.argv, execArgv: process.execArgv,
 *          execPath: process.execPath, env: process.env, platform: process.platform,
 *          canExecve: typeof process.execve === 'function' });
 */
export function botRelaunch(running: RunningProcess): { args: string[]; env: NodeJS.ProcessEnv } | undefined {
  if (running.argv[2] !== 'start' || !running.canExecve || running.platform === 'win32') return undefined;
  const missingFlags = BOT_NODE_FLAGS.some((flag) => !running.execArgv.includes(flag));
  const missingEnv = Object.keys(BOT_MALLOC_ENV).some((name) => running.env[name] === undefined);
  if (!missingFlags && !missingEnv) return undefined;
  return {
    args: [running.execPath, ...BOT_NODE_FLAGS, ...running.execArgv, ...running.argv.slice(1)],
    env: { ...BOT_MALLOC_ENV, ...running.env },
  };
}
