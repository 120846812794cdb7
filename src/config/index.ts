// Configuration: the environment parsed once into a typed object, with errors that name the variable.

export { ENV_FILE_VARIABLE, loadEnvFile, NO_ENV_FILE } from './envFile.js';
export {
  type Config,
  configSecrets,
  isTimeZone,
  type LoadConfigOptions,
  loadConfig,
  type ReportingConfig,
  type SlackConfig,
} from './loadConfig.js';
