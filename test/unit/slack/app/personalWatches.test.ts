import { PERSONAL_WATCH_CAP, watchAccess, withSavedQueryReports } from '../../../../src/query/index.js';
import { visibleAlerts, watchesSection } from '../../../../src/slack/app/screens/watchesSection.js';
import { capRefusal, isPersonalWatch, knownDm } from '../../../../src/slack/app/watchDestination.js';
import type { AlertIncident, Subscription } from '../../../../src/store/index.js';

const now = new Date('2026-03-10T12:00:00Z');
const watchOf = (name: string, fields: Partial<Subscription> = {}): Subscription => ({
  id: `sub-${name}`,
  report: `watch-${name}`,
  channel: 'C0GENERAL1',
  query: 'spend yesterday',
  watch: { id: name, metric: 'spend', above: 100, check: { cron: '0 9 * * *' } },
  createdBy: 'U0ADMIN1',
  createdAt: now.toISOString(),
  updatedAt: now.toISOString(),
  ...fields,
});
const channelWatch = watchOf('team-spend');
const alices = watchOf('alice-spend', { channel: 'DALICEDM', owner: 'U0ALICE', createdBy: 'U0ALICE' });
const ALICE = { userId: 'U0ALICE', admin: false };
const BOB = { userId: 'U0BOB', admin: false };
const ADMIN = { userId: 'U0ADMIN1', admin: true };

describe('personal watches: who saves, sees and removes what', () => {
  it.each<[string, string, boolean, boolean]>([
    ['a member, in a channel', 'C0GENERAL1', false, true],
    ['a member, in their DM', 'D0ALICE01', false, true],
    ['an admin, in a channel: a channel watch', 'C0GENERAL1', true, false],
    ['an admin, in a private channel: a channel watch', 'G0PRIVATE1', true, false],
    ['an admin, in their DM', 'D0ADMIN01', true, true],
  ])('%s', (_name, channel, admin, personal) => {
    expect(isPersonalWatch(channel, { admin })).toBe(personal);
  });

  it('opens no DM when the answer was in one', () => {
    expect(knownDm('D0ALICE01')).toBe('D0ALICE01');
    expect(knownDm('C0GENERAL1')).toBeUndefined();
  });

  it.each<[string, Subscription, { userId: string; admin: boolean }, { visible: boolean; removable: boolean }]>([
    ['a channel watch, to a member', channelWatch, BOB, { visible: true, removable: false }],
    ['a channel watch, to an admin', channelWatch, ADMIN, { visible: true, removable: true }],
    ["Alice's, to Alice", alices, ALICE, { visible: true, removable: true }],
    ["Alice's, to Bob", alices, BOB, { visible: false, removable: false }],
    ["Alice's, to an admin", alices, ADMIN, { visible: true, removable: true }],
  ])('%s', (_name, watch, who, expected) => {
    expect(watchAccess(watch, who)).toEqual(expected);
  });

  it(`refuses the ${PERSONAL_WATCH_CAP + 1}st personal watch of one person, not another's first`, () => {
    const many = Array.from({ length: PERSONAL_WATCH_CAP }, (_, i) =>
      watchOf(`bob-${i}`, { channel: 'DBOBDM01', owner: 'U0BOB' }),
    );
    expect(capRefusal(many.slice(1), 'U0BOB')).toBeUndefined();
    expect(capRefusal(many, 'U0BOB')).toBe(
      'You keep 20 personal watches, the most one person may (20). Remove one first: its Remove button in `/pivot alerts` or App Home, or `/pivot unwatch <name>`.',
    );
    expect(capRefusal([...many, channelWatch], 'U0ALICE')).toBeUndefined();
  });

  it("compiles into a report whose incident threads are in the owner's DM", () => {
    const empty = { reports: [], problems: [], broken: [], glossary: undefined } as never;
    const loaded = withSavedQueryReports(empty, [alices], { now, defaultTimeZone: 'UTC' });
    expect(loaded.reports[0]?.definition.deliver?.channels).toEqual(['DALICEDM']);
  });

  it('lists the channel watches and their own for a member (Remove on their own), everything for an admin', () => {
    const list = [channelWatch, alices];
    const shown = (who: typeof ALICE) => JSON.stringify(watchesSection(list, who));
    const buttons = (text: string) => (text.match(/pivot_unwatch/g) ?? []).length;
    expect(shown(ALICE)).toContain('Watches (2)');
    expect(shown(ALICE)).toContain('`alice-spend` · spend yesterday · your DMs');
    expect(buttons(shown(ALICE))).toBe(1);
    expect(shown(BOB)).toContain('Watches (1)');
    expect(shown(BOB)).not.toContain('alice-spend');
    expect(buttons(shown(BOB))).toBe(0);
    expect(shown(ADMIN)).toContain("<@U0ALICE>'s DMs");
    expect(buttons(shown(ADMIN))).toBe(2);
  });

  it("leaves others' personal watches out of the alerts summary: their rules, evaluations and incidents", () => {
    const reports = { reports: [{ id: 'watch-team-spend' }, { id: 'watch-alice-spend' }] } as never;
    const incident = (reportId: string) => ({ reportId, ruleId: 'r' }) as AlertIncident;
    const incidents = {
      listEvaluations: () => [{ reportId: 'watch-team-spend' }, { reportId: 'watch-alice-spend' }] as never,
      listOpen: () => [incident('watch-team-spend'), incident('watch-alice-spend')],
      listByReportRule: (reportId: string) => [incident(reportId)],
    };
    const ids = (who: typeof ALICE) => {
      const seen = visibleAlerts(reports, incidents, [channelWatch, alices], who);
      return {
        reports: (seen.reports as unknown as { reports: Array<{ id: string }> }).reports.map((r) => r.id),
        open: seen.incidents.listOpen().map((i) => i.reportId),
        evaluations: seen.incidents.listEvaluations().map((e) => e.reportId),
        figures: seen.incidents.listByReportRule('watch-alice-spend', 'r').length,
      };
    };
    expect(ids(BOB)).toEqual({
      reports: ['watch-team-spend'],
      open: ['watch-team-spend'],
      evaluations: ['watch-team-spend'],
      figures: 0,
    });
    expect(ids(ALICE).open).toEqual(['watch-team-spend', 'watch-alice-spend']);
    expect(ids(ADMIN).figures).toBe(1);
  });
});
