/** The one failure notice of a slot says how many tries were made, not how many were allowed. */
import { silentLogger, UserInputError } from '../../../src/core/index.js';
import { type DigestDeps, postDigestFailure } from '../../../src/delivery/index.js';
import type { SlackMessage } from '../../../src/render/index.js';
import type { ScheduleSpec } from '../../../src/scheduler/index.js';
import { createMemoryStore } from '../../../src/store/index.js';

const SLOT = new Date('2026-11-20T12:00:00Z');
const spec: ScheduleSpec = {
  id: 'report:daily:C1:0 9 * * *@UTC',
  report: 'daily',
  channel: 'C1',
  source: 'report',
  timezone: 'UTC',
  cron: '0 9 * * *',
  catchUp: null,
  retry: { attempts: 3, backoffMs: 120_000 },
};

describe('postDigestFailure', () => {
  it.each([
    [1, 'after 1 attempt(s)'],
    [3, 'after 3 attempt(s)'],
  ])('after %s tries of 3 allowed, says %s', async (tries, expected) => {
    const store = createMemoryStore({ clock: () => SLOT });
    let runId = '';
    for (let i = 0; i < tries; i++) {
      const { run } = await store.runs.start({
        report: 'daily',
        trigger: 'schedule',
        idempotencyKey: `digest:daily:C1:${SLOT.toISOString()}`,
        scheduledFor: SLOT.toISOString(),
        channel: 'C1',
      });
      await store.runs.finish(run.id, { status: 'failed', error: { code: 'X', message: 'x' } });
      runId = run.id;
    }
    const posts: SlackMessage[] = [];
    const deps = {
      store,
      logger: silentLogger(),
      loadReports: async () => ({ reports: [], problems: [], broken: [] }),
      slack: {
        async post(_channel: string, message: SlackMessage) {
          posts.push(message);
          return { ts: '1.000001', channel: 'C1' };
        },
      },
    } as unknown as DigestDeps;
    await postDigestFailure(
      { spec, slot: SLOT, error: new UserInputError('QUERY_INVALID', 'no such metric'), runId },
      deps,
    );
    expect(posts[0]?.text).toContain(expected);
  });
});
