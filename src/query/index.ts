// The ad-hoc query language of /pivot and `pivotbot query`: tokenize, parse (with the trade's glossary), compile against the catalog, explain errors; follow-ups that edit a query.
export { applyFollowUp, FOLLOW_UP_EXAMPLES, type FollowUpAnswer } from './applyFollowUp.js';
export type * from './ast.js';
export { type CompiledQuery, compileQuery, type QueryOptions, type RunCommand } from './compileQuery.js';
export { countryCodeOf } from './countries.js';
export { describeUnderstood, fieldText, rangeText } from './describeUnderstood.js';
export { formatQuery } from './formatQuery.js';
export { formatQueryError } from './formatQueryError.js';
export { defaultGlossary, GlossaryIndex } from './GlossaryIndex.js';
export { COMPARE_TERMS, GLOSSARY, type GlossaryMeaning, type GlossaryTerm, RANGE_TERMS } from './glossary.js';
export { CLAUSE_WORDS, parseQuery } from './parseQuery.js';
export { whyQueryText } from './politeness.js';
export { QueryError } from './QueryError.js';
export { adhocAstOf, entityQueryOf, queryTextOf } from './queryOfDefinition.js';
export {
  PERSONAL_WATCH_CAP,
  personalWatchesOf,
  SAVED_QUERY_PREFIX,
  savedName,
  savedQueriesOf,
  savedQueryId,
  savedQueryYaml,
  WATCH_PREFIX,
  watchAccess,
  watchesOf,
  watchId,
  withSavedQueries,
  withSavedQueryReports,
} from './savedQueries.js';
export { type Token, type TokenKind, tokenize } from './tokenize.js';
export { type WatchableQuery, watchableQuery } from './watchableQuery.js';
export {
  GLOSSARY_FILE,
  loadWorkspaceGlossary,
  parseWorkspaceGlossary,
  workspaceGlossaryOf,
} from './workspaceGlossary.js';
