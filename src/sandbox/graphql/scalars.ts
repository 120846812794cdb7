/** The spec's custom scalars: Long (serialized as a string of digits) and DateTime (ISO 8601). */
import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
import { SCALARS } from '../../reporting/index.js';
import { parseDateTimeInput } from '../sql/dateTime.js';

const describe = (name: string): string => SCALARS.find((s) => s.name === name)?.description ?? name;

function toLong(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number' && Number.isInteger(value)) return String(value);
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return value;
  throw new GraphQLError(`Long cannot represent ${JSON.stringify(String(value))}: expected a whole number`);
}

export const LongScalar = new GraphQLScalarType({
  name: 'Long',
  description: describe('Long'),
  serialize: toLong,
  parseValue: toLong,
  parseLiteral(ast) {
    if (ast.kind === Kind.INT || ast.kind === Kind.STRING) return toLong(ast.value);
    throw new GraphQLError('Long must be written as a string or an integer literal', { nodes: ast });
  },
});

function toDateTimeInput(value: unknown): string {
  if (typeof value !== 'string' || parseDateTimeInput(value) === null) {
    throw new GraphQLError(
      `DateTime cannot represent ${JSON.stringify(value)}: use YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS] or a date-time with a UTC offset`,
    );
  }
  return value;
}

export const DateTimeScalar = new GraphQLScalarType({
  name: 'DateTime',
  description: describe('DateTime'),
  serialize(value) {
    if (value instanceof Date) return value.toISOString();
    if (typeof value === 'string') return value;
    throw new GraphQLError(`DateTime cannot serialize ${JSON.stringify(value)}`);
  },
  parseValue: toDateTimeInput,
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING) throw new GraphQLError('DateTime must be a string', { nodes: ast });
    return toDateTimeInput(ast.value);
  },
});
