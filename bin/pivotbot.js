#!/usr/bin/env node
// The compiled CLI lives in dist/ (`npm run build`); this shim keeps the package `bin` stable.
import { enableCompileCache } from 'node:module';

// V8's code for our modules and their dependencies is kept on disk (os.tmpdir()/node-compile-cache,
// or NODE_COMPILE_CACHE), so a restart compiles nothing it compiled before: about 170 ms of the
// 840 ms it takes to load the bot (docs/benchmarks.md, "Start-up"). The variable carries it to the
// Slack receiver thread and the chart process. An optimisation only: a cache that cannot be written
// is skipped, and NODE_DISABLE_COMPILE_CACHE=1 turns it off.
const cache = enableCompileCache?.();
if (cache?.directory && process.env.NODE_COMPILE_CACHE === undefined) process.env.NODE_COMPILE_CACHE = cache.directory;

const { main } = await import('../dist/src/cli/main.js');
process.exitCode = await main(process.argv);
