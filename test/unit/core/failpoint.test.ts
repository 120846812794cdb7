import { jest } from '@jest/globals';
import { failpoint } from '../../../src/core/index.js';

describe('failpoint', () => {
  const saved = process.env.PIVOTBOT_FAILPOINT;

  afterEach(() => {
    if (saved === undefined) delete process.env.PIVOTBOT_FAILPOINT;
    else process.env.PIVOTBOT_FAILPOINT = saved;
  });

  /** What the failpoint did under `spec`: the signal it sent to which process, or nothing. */
  const reached = (spec: string | undefined, name: string): unknown => {
    if (spec === undefined) delete process.env.PIVOTBOT_FAILPOINT;
    else process.env.PIVOTBOT_FAILPOINT = spec;
    const kill = jest.fn<(pid: number, signal: 'SIGKILL') => unknown>();
    failpoint(name, kill);
    if (kill.mock.calls.length === 0) return 'went on';
    const [pid, signal] = kill.mock.calls[0] as [number, string];
    return pid === process.pid ? signal : `another process: ${pid}`;
  };

  it.each([
    [undefined, 'alert-parent-posted', 'went on'],
    ['', 'alert-parent-posted', 'went on'],
    ['alert-parent-posted:exit', 'alert-parent-posted', 'SIGKILL'],
    ['alert-parent-posted:exit', 'digest-posted', 'went on'],
    ['digest-posted:exit,alert-parent-posted:exit', 'alert-parent-posted', 'SIGKILL'],
    [' digest-posted : exit ', 'digest-posted', 'SIGKILL'],
    ['digest-posted', 'digest-posted', 'went on'],
    ['digest-posted:pause', 'digest-posted', 'went on'],
    ['digest-posted-later:exit', 'digest-posted', 'went on'],
  ])('PIVOTBOT_FAILPOINT=%j at %s → %j', (spec, name, expected) => {
    expect(reached(spec, name)).toBe(expected);
  });

  it('reads the variable at each call, not once at load', () => {
    expect(reached(undefined, 'digest-posted')).toBe('went on');
    expect(reached('digest-posted:exit', 'digest-posted')).toBe('SIGKILL');
  });
});
