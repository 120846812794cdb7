// The shared kernel every domain may use: the error hierarchy, invariants, suggestions, logging.

export { compiledSibling } from './compiledSibling.js';
export { didYouMean, editDistance, suggest } from './didYouMean.js';
export {
  ConfigError,
  InvariantError,
  invariant,
  PivotbotError,
  type PivotbotErrorOptions,
  toError,
  UserInputError,
} from './errors.js';
export { createLogger, type Logger, type LoggerOptions, scrubSecrets, silentLogger } from './logger.js';
