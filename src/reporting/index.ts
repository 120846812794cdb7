// The Reporting Service client: tokens, typed requests compiled to GraphQL, operations, errors, and the catalog.
export * from './catalog/index.js';
export { checkValue, type Problem, parseDateTimeInput } from './checkValue.js';
export {
  ASYNC_PIVOT_FIELDS,
  type CompiledOperation,
  type CompiledPivot,
  compileAsyncPivot,
  compileAsyncPivots,
  compileCreateAsyncPivot,
  compilePivot,
  compilePostbackShare,
} from './compilePivot.js';
export { type DownloadCsvOptions, type DownloadedCsv, downloadCsv, parseCsvLine } from './downloadCsv.js';
export {
  AsyncPivotFailedError,
  PivotValidationError,
  ReportingAuthError,
  ReportingError,
  ReportingGraphQLError,
  ReportingHttpError,
  ReportingNetworkError,
  ReportingResponseError,
  ReportingTimeoutError,
} from './errors.js';
export { parseJsonLossless } from './losslessJson.js';
export { parseCsv } from './parseCsv.js';
export {
  ReportingClient,
  type ReportingClientOptions,
  type RequestOptions,
  type WaitOptions,
} from './ReportingClient.js';
export type * from './request.js';
export { backoffDelay, DEFAULT_RETRY_POLICY, failureAction, type RetryPolicy } from './retryPolicy.js';
export { TokenCache, type TokenCacheOptions } from './tokenCache.js';
export { GraphQLTransport } from './transport.js';
export {
  collectPivotProblems,
  offsetMinutes,
  usesCtv,
  type ValidateOptions,
  type Validation,
  validatePivot,
} from './validatePivot.js';
