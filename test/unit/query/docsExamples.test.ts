import { readFileSync } from 'node:fs';
import { compileQuery } from '../../../src/query/index.js';

const doc = readFileSync('docs/query-language.md', 'utf8');
const block = /## Examples\n\n```\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';
const examples = block.split('\n').filter((line) => line.trim() !== '');

describe('the examples of docs/query-language.md', () => {
  it('are there', () => {
    expect(examples.length).toBeGreaterThan(20);
  });

  it.each(examples)('%s compiles', (query) => {
    expect(() => compileQuery(query, { now: new Date('2026-11-20T12:00:00Z') })).not.toThrow();
  });
});
