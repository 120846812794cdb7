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
  // A worker's heap only grows (jest's ESM module registries of every file it ran stay reachable):
  // 1.6-1.8 GB (RSS 2.0-2.5 GB) by the end of a full run. Nothing is left open when jest ends (no
  // handle, timer, socket, child process or thread: checked per file and at the end), but tearing
  // such a heap down took past jest's grace on the loaded machine, so jest printed "A worker process
  // has failed to exit gracefully". A worker idle above 1 GB is replaced between files instead.
  workerIdleMemoryLimit: '1GB',
  // A worker that a leaked handle keeps alive is still killed and reported.
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
