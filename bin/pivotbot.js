#!/usr/bin/env node
// The compiled CLI lives in dist/ (`npm run build`); this shim keeps the package `bin` stable.
import * as nodeModule from 'node:module';
import { botRelaunch, unsupportedNode } from '../dist/src/cli/botProcess.js';

// An older node would fail later, on something it lacks, less clearly.
const tooOld = unsupportedNode(process.versions.node);
if (tooOld) {
  process.stderr.write(`${tooOld}\n`);
  process.exit(1);
}

// `pivotbot start` runs with the bot's V8 flags and malloc settings however it was launched: when
// they are missing, this process is replaced by node with them (same pid; src/cli/botProcess.ts).
const relaunch = botRelaunch({
  argv: process.argv,
  execArgv: process.execArgv,
  execPath: process.execPath,
  env: process.env,
  platform: process.platform,
  canExecve: typeof process.execve === 'function',
});
if (relaunch) {
  try {
    process.execve(process.execPath, relaunch.args, relaunch.env);
  } catch {
    // Not replaceable here: the bot runs as it was started.
  }
}

// V8's code for our modules and their dependencies is kept on disk (os.tmpdir()/node-compile-cache,
// or NODE_COMPILE_CACHE), so a restart compiles nothing it compiled before: a bot listens about
// 290 ms sooner (docs/benchmarks.md, "Footprint"). The variable carries it to the Slack receiver
// thread and the chart process. An optimisation only: a cache that cannot be written is skipped, and
// NODE_DISABLE_COMPILE_CACHE=1 turns it off.
const cache = nodeModule.enableCompileCache?.();
if (cache?.directory && process.env.NODE_COMPILE_CACHE === undefined) process.env.NODE_COMPILE_CACHE = cache.directory;

const { main } = await import('../dist/src/cli/main.js');
process.exitCode = await main(process.argv);
