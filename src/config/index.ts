// Configuration: the environment parsed once into a typed object, with errors that name the variable.

export { loadEnvFile } from './envFile.js';
export {
  type Config,
  configSecrets,
  isTimeZone,
  type LoadConfigOptions,
  loadConfig,
  type ReportingConfig,
  type SlackConfig,
} from './loadConfig.js';
