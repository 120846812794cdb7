#!/usr/bin/env node
// The compiled CLI lives in dist/ (`npm run build`); this shim keeps the package `bin` stable.
import { main } from '../dist/src/cli/main.js';

process.exitCode = await main(process.argv);
