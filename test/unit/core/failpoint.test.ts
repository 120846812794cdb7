import { jest } from '@jest/globals';
import { failpoint } from '../../../src/core/index.js';

/** What `process.exit` was called with, thrown instead of ending the test process. */
class Exited extends Error {
  constructor(readonly code: unknown) {
    super(`process.exit(${String(code)})`);
  }
}

describe('failpoint', () => {
  const saved = process.env.PIVOTBOT_FAILPOINT;
  let exit: ReturnType<typeof jest.spyOn>;

  beforeEach(() => {
    exit = jest.spyOn(process, 'exit').mockImplementation((code) => {
      throw new Exited(code);
    });
  });

  afterEach(() => {
    exit.mockRestore();
    if (saved === undefined) delete process.env.PIVOTBOT_FAILPOINT;
    else process.env.PIVOTBOT_FAILPOINT = saved;
  });

  const reached = (spec: string | undefined, name: string): unknown => {
    if (spec === undefined) delete process.env.PIVOTBOT_FAILPOINT;
    else process.env.PIVOTBOT_FAILPOINT = spec;
    try {
      failpoint(name);
      return 'went on';
    } catch (error) {
      return error instanceof Exited ? error.code : error;
    }
  };

  it.each([
    [undefined, 'alert-parent-posted', 'went on'],
    ['', 'alert-parent-posted', 'went on'],
    ['alert-parent-posted:exit', 'alert-parent-posted', 137],
    ['alert-parent-posted:exit', 'digest-posted', 'went on'],
    ['digest-posted:exit,alert-parent-posted:exit', 'alert-parent-posted', 137],
    [' digest-posted : exit ', 'digest-posted', 137],
    ['digest-posted', 'digest-posted', 'went on'],
    ['digest-posted:pause', 'digest-posted', 'went on'],
    ['digest-posted-later:exit', 'digest-posted', 'went on'],
  ])('PIVOTBOT_FAILPOINT=%j at %s → %j', (spec, name, expected) => {
    expect(reached(spec, name)).toBe(expected);
  });

  it('reads the variable at each call, not once at load', () => {
    expect(reached(undefined, 'digest-posted')).toBe('went on');
    expect(reached('digest-posted:exit', 'digest-posted')).toBe(137);
    expect(exit).toHaveBeenCalledTimes(1);
  });
});
