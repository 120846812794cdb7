import { interruptedRunAction, interruptedRunMessage, jobOfRun } from '../../../src/delivery/resolveInterruptedRuns.js';
import type { AsyncJob, Run } from '../../../src/store/index.js';

const at = '2026-03-01T09:00:00.000Z';
const run: Run = {
  id: 'run_1',
  report: 'daily-kpi',
  trigger: 'manual',
  idempotencyKey: 'slack:t1',
  attempt: 1,
  status: 'running',
  startedAt: at,
  channel: 'C1',
  requester: 'U1',
  command: 'run daily-kpi yesterday',
};
const job = (status: AsyncJob['status'], extra: Partial<AsyncJob> = {}): AsyncJob =>
  ({ id: 'job-1', request: {}, requester: 'U1', channel: 'C1', status, createdAt: at, ...extra }) as AsyncJob;

describe('interruptedRunAction', () => {
  it.each([
    ['no job: the requester is told', run, undefined, { kind: 'tell-requester' }],
    [
      'a running job it is linked to: wait for it',
      { ...run, jobId: 'job-1' },
      job('running'),
      { kind: 'wait-for-job', jobId: 'job-1', link: false },
    ],
    [
      'a queued job it is not linked to yet: link, then wait',
      run,
      job('queued'),
      { kind: 'wait-for-job', jobId: 'job-1', link: true },
    ],
    [
      'a job that succeeded: succeeded at its message',
      run,
      job('succeeded', { threadTs: '1700000000.000100' }),
      { kind: 'finish', status: 'succeeded', messageTs: '1700000000.000100' },
    ],
    [
      'a job that failed: failed with its error',
      run,
      job('failed', { error: { code: 'JOB_FAILED', message: 'x' } }),
      { kind: 'finish', status: 'failed', error: { code: 'JOB_FAILED', message: 'x' } },
    ],
    [
      'a cancelled job without an error: failed',
      run,
      job('cancelled'),
      { kind: 'finish', status: 'failed', error: { code: 'JOB_FAILED', message: 'the job failed' } },
    ],
  ] as const)('%s', (_name, r, j, expected) => {
    expect(interruptedRunAction(r as Run, j as AsyncJob | undefined)).toEqual(expected);
  });
});

describe('jobOfRun', () => {
  const jobs = [
    job('running', { id: 'job-a', request: { runId: 'run_9' } }),
    job('running', { id: 'job-b', request: { runId: 'run_1' } }),
  ];
  const store = { jobs: { get: (id: string) => jobs.find((j) => j.id === id), list: () => jobs } } as never;

  it("follows the run's link, or finds the job that names the run when the link was never written", () => {
    expect(jobOfRun(store, { ...run, jobId: 'job-a' })?.id).toBe('job-a');
    expect(jobOfRun(store, run)?.id).toBe('job-b');
    expect(jobOfRun(store, { ...run, id: 'run_2' })).toBeUndefined();
  });
});

describe('interruptedRunMessage', () => {
  it('gives the command to run again; mentions the requester only when posted to the channel', () => {
    expect(interruptedRunMessage(run, false).text).toBe(
      'Your `/pivot run daily-kpi yesterday` was interrupted: pivotbot restarted before it finished, and nothing was posted. Run it again with `/pivot run daily-kpi yesterday`.',
    );
    expect(interruptedRunMessage(run, true).text).toMatch(/^<@U1> Your `\/pivot run daily-kpi yesterday`/);
    const { command: _c, ...noCommand } = run;
    expect(interruptedRunMessage(noCommand, false).text).toContain('`/pivot run daily-kpi`');
  });
});
