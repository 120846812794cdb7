/** The spec's scalars, with its meaning of each. */
export const SCALARS: readonly { name: string; description: string }[] = [
  { name: 'String', description: 'UTF-8 text' },
  { name: 'Boolean', description: 'true or false' },
  { name: 'Int', description: 'signed whole number in the range -(2^31) to 2^31 - 1' },
  {
    name: 'Long',
    description:
      'whole number without size bound; serialized as a string in responses (e.g. a string of digits) and written as a string in cleanup thresholds',
  },
  { name: 'Float', description: 'signed IEEE 754 double-precision number' },
  {
    name: 'DateTime',
    description:
      'ISO 8601 date-time. Accepted input forms: date only, date-time without zone, date-time with UTC offset. Result dates are returned as ISO 8601 strings with offset.',
  },
];
