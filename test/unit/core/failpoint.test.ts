import { jest } from '@jest/globals';
import { failpoint } from '../../../src/core/index.js';

describe('failpoint', () => {
  const saved = process.env.PIVOTBOT_FAILPOINT;
  let exits: Array<number | string | null | undefined>;

  beforeEach(() => {
    exits = [];
    jest.spyOn(process, 'exit').mockImplementation((code) => {
      exits.push(code);
      return undefined as never;
    });
  });

  afterEach(() => {
    jest.restoreAllMocks();
    if (saved === undefined) delete process.env.PIVOTBOT_FAILPOINT;
    else process.env.PIVOTBOT_FAILPOINT = saved;
  });

  it('does nothing when PIVOTBOT_FAILPOINT is unset or empty', () => {
    delete process.env.PIVOTBOT_FAILPOINT;
    failpoint('after-post');
    process.env.PIVOTBOT_FAILPOINT = '';
    failpoint('after-post');
    expect(exits).toEqual([]);
  });

  it('exits with 137 at a named point, read when reached, from a comma-separated list', () => {
    process.env.PIVOTBOT_FAILPOINT = 'before-claim:exit, after-post:exit';
    failpoint('after-claim');
    expect(exits).toEqual([]);
    failpoint('after-post');
    failpoint('before-claim');
    expect(exits).toEqual([137, 137]);
  });

  it('ignores a point named without the :exit action', () => {
    process.env.PIVOTBOT_FAILPOINT = 'after-post';
    failpoint('after-post');
    expect(exits).toEqual([]);
  });
});
