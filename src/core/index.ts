// The shared kernel every domain may use: the error hierarchy and its one list of codes, invariants, suggestions, logging, test failpoints.

export { compiledSibling } from './compiledSibling.js';
export { dateTimeFormat } from './dateTimeFormat.js';
export {
  type DescribeFailureOptions,
  describeFailure,
  newErrorRef,
  type UserFailure,
  userMessageOf,
} from './describeFailure.js';
export { didYouMean, editDistance, suggest } from './didYouMean.js';
export { ErrorCode, isErrorCode } from './errorCodes.js';
export {
  ConfigError,
  INTERNAL_FAILURE_MESSAGE,
  InvariantError,
  invariant,
  PivotbotError,
  type PivotbotErrorOptions,
  toError,
  UserInputError,
} from './errors.js';
export { failpoint } from './failpoint.js';
export { createLogger, type Logger, type LoggerOptions, scrubSecrets, silentLogger } from './logger.js';
export { CancelledError, sleep, untilAborted } from './sleep.js';
export { type StoredFailure, storedError } from './storedError.js';
export { errorClassName, fromWireError, toWireError, type WireError } from './wireError.js';
