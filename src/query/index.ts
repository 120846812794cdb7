// The ad-hoc query language of /pivot and `pivotbot query`: tokenize, parse, compile against the catalog, explain errors.
export type * from './ast.js';
export { type CompiledQuery, compileQuery, type QueryOptions, type RunCommand } from './compileQuery.js';
export { formatQueryError } from './formatQueryError.js';
export { CLAUSE_WORDS, parseQuery } from './parseQuery.js';
export { QueryError } from './QueryError.js';
export { type Token, type TokenKind, tokenize } from './tokenize.js';
