// The embedded Reporting Service: HTTP server, OAuth tokens, GraphQL over DuckDB, async CSV jobs, faults, planted causes.
export { ANOMALIES } from './data/factsSql.js';
export { type GenerationInfo, SCALES, type Scale } from './data/generate.js';
export { DEFAULT_FAULTS, type Faults } from './faults.js';
export type { PlantsState } from './plantedFacts.js';
export {
  checkPlants,
  PLANT_DIMENSIONS,
  PLANT_METRICS,
  type Plant,
  type PlantInput,
  type PlantMetric,
} from './plants.js';
export {
  parseSandboxOptions,
  runSandboxCommand,
  type SandboxCommandIo,
  type SandboxCommandOptions,
} from './runSandboxCommand.js';
export { type RunningSandbox, type SandboxOptions, startSandbox } from './startSandbox.js';
