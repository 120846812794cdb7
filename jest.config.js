/**
 * Jest runs TypeScript through @swc/jest (transpile only); `npm run typecheck` is the type gate.
 * `ignoreDynamic` keeps `import()` native where jest loads a file as CommonJS (the global setup).
 */
const transform = {
  '^.+\\.ts$': [
    '@swc/jest',
    { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'es6', ignoreDynamic: true } },
  ],
};
const common = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform,
};

/** @type {import('jest').Config} */
export default {
  // Integration tests start real servers; a project-level testTimeout is ignored by jest, so it is global.
  testTimeout: 60_000,
  // One embedded PostgreSQL for the run, started when a file first asks for one (fresh databases per file).
  globalSetup: '<rootDir>/test/support/sharedPostgres.ts',
  globalTeardown: '<rootDir>/test/support/sharedPostgresTeardown.ts',
  // Most integration time is spent waiting on real servers and schedules, not on the CPU: two
  // workers on the 2-core machines (jest's default would be one) halve the wall time.
  maxWorkers: 2,
  // A worker's loop is empty within milliseconds of the run's end (nothing left open), but its
  // exit still tears down a heap of up to ~900 MB: 0.5-3 s on the shared 2-core machine, past
  // jest's 500 ms, so jest printed "A worker process has failed to exit gracefully" for workers
  // already exiting. A worker that a leaked handle keeps alive is still killed and reported.
  workerGracefulExitTimeout: 10_000,
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
    },
  ],
};
