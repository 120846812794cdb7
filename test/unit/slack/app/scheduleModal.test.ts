import { parse as parseYaml } from 'yaml';
import { savedQueryYaml, withSavedQueryReports } from '../../../../src/query/savedQueries.js';
import { loadReports } from '../../../../src/reports/index.js';
import {
  parseScheduleMetadata,
  SCHEDULE_BLOCKS,
  type ScheduleForm,
  scheduleFormFromState,
  scheduleModalView,
  suggestedName,
  validateScheduleForm,
} from '../../../../src/slack/app/scheduleModal.js';
import type { Subscription } from '../../../../src/store/index.js';

const now = new Date('2026-11-20T10:00:00Z');
const queryOptions = { now, defaultTimeZone: 'UTC' };
const query = 'spend installs by countryCode yesterday';
const form = (extra: Partial<ScheduleForm> = {}): ScheduleForm => ({
  name: 'spend-by-country',
  channel: 'C0MARKET01',
  time: '08:30',
  days: ['1', '2', '3', '4', '5'],
  zone: 'Europe/Berlin',
  ...extra,
});
const check = (f: ScheduleForm, taken: string[] = []) =>
  validateScheduleForm(f, { query, taken: (name) => taken.includes(name), queryOptions });

describe('validateScheduleForm', () => {
  it.each([
    [{}, { cron: '30 8 * * 1,2,3,4,5' }],
    [{ days: ['7', '6'] }, { cron: '30 8 * * 0,6' }],
    [{ days: ['1', '2', '3', '4', '5', '6', '7'] }, { at: '08:30' }],
    [{ time: '00:05', days: ['3'] }, { cron: '5 0 * * 3' }],
    [{ zone: 'europe/berlin' }, { cron: '30 8 * * 1,2,3,4,5' }],
  ] as Array<[Partial<ScheduleForm>, Record<string, string>]>)('%j → %j', (extra, timing) => {
    const verdict = check(form(extra));
    expect(verdict).toEqual({
      ok: true,
      saved: { name: 'spend-by-country', query, channel: 'C0MARKET01', timezone: 'Europe/Berlin', ...timing },
    });
  });

  it.each([
    [{ name: 'Spend By Country' }, SCHEDULE_BLOCKS.name],
    [{ name: '' }, SCHEDULE_BLOCKS.name],
    [{ name: 'a'.repeat(41) }, SCHEDULE_BLOCKS.name],
    [{ channel: '' }, SCHEDULE_BLOCKS.channel],
    [{ time: '' }, SCHEDULE_BLOCKS.time],
    [{ days: [] }, SCHEDULE_BLOCKS.days],
    [{ zone: 'Europe/Berln' }, SCHEDULE_BLOCKS.zone],
  ] as Array<[Partial<ScheduleForm>, string]>)('%j is refused at %s', (extra, block) => {
    const verdict = check(form(extra));
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) {
      expect(Object.keys(verdict.errors)).toEqual([block]);
      expect(verdict.errors[block]?.length).toBeLessThanOrEqual(150);
    }
  });

  it('refuses a taken name', () => {
    const verdict = check(form(), ['spend-by-country']);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.errors[SCHEDULE_BLOCKS.name]).toContain('taken');
  });
});

describe('the schedule modal', () => {
  it('defaults to the current channel, weekdays, 09:00 and the bot zone; reads its state back', () => {
    const view = scheduleModalView({ query, channel: 'C1', timezone: 'UTC' }) as {
      blocks: Array<{ block_id?: string; element?: Record<string, unknown> }>;
      private_metadata: string;
    };
    expect(parseScheduleMetadata(view.private_metadata)).toEqual({ query, origin: 'C1' });
    const el = (block: string) => view.blocks.find((b) => b.block_id === block)?.element ?? {};
    expect(el(SCHEDULE_BLOCKS.channel).initial_conversation).toBe('C1');
    expect(el(SCHEDULE_BLOCKS.time).initial_time).toBe('09:00');
    expect((el(SCHEDULE_BLOCKS.days).initial_options as unknown[]).length).toBe(5);
    expect(el(SCHEDULE_BLOCKS.name).initial_value).toBe('spend-installs-by-countrycode-yesterday');
    const state = {
      [SCHEDULE_BLOCKS.name]: { name: { value: ' weekly-spend ' } },
      [SCHEDULE_BLOCKS.channel]: { channel: { selected_conversation: 'C2' } },
      [SCHEDULE_BLOCKS.time]: { time: { selected_time: '07:00' } },
      [SCHEDULE_BLOCKS.days]: { days: { selected_options: [{ value: '1' }] } },
      [SCHEDULE_BLOCKS.zone]: { zone: { value: 'UTC' } },
    };
    expect(scheduleFormFromState(state)).toEqual({
      name: 'weekly-spend',
      channel: 'C2',
      time: '07:00',
      days: ['1'],
      zone: 'UTC',
    });
    expect(parseScheduleMetadata('not json')).toBeUndefined();
  });

  it.each([
    ['spend by countryCode', 'spend-by-countrycode'],
    ['   ', 'saved-query'],
    ['cpi (installs) — L7D', 'cpi-installs-l7d'],
  ])('suggests a name for %j', (text, name) => {
    expect(suggestedName(text)).toBe(name);
  });
});

const saved = (extra: Partial<Subscription> = {}): Subscription => ({
  id: 'sub-1',
  report: 'saved-spend-by-country',
  channel: 'C0MARKET01',
  query,
  cron: '30 8 * * 1,2,3,4,5',
  timezone: 'Europe/Berlin',
  createdBy: 'U0ADMIN1',
  createdAt: now.toISOString(),
  updatedAt: now.toISOString(),
  ...extra,
});

describe('saved queries as reports', () => {
  const empty = { reports: [], problems: [], broken: [] };

  it('adds each saved query as a report; ignores plain subscriptions', () => {
    const { query: _query, ...plain } = saved({ id: 'sub-2', report: 'daily-kpi' });
    const loaded = withSavedQueryReports(empty, [saved(), plain], queryOptions);
    expect(loaded.reports.map((r) => r.id)).toEqual(['saved-spend-by-country']);
    expect(loaded.reports[0]?.definition.title).toBe(`Saved query: ${query}`);
    expect(loaded.reports[0]?.definition.query.dimensions).toEqual([{ name: 'countryCode' }]);
  });

  it('lists one that no longer compiles, or whose id a file uses, as a problem', () => {
    const file = { id: 'saved-spend-by-country', file: 'x.yaml', definition: {} as never };
    const taken = withSavedQueryReports({ ...empty, reports: [file] }, [saved()], queryOptions);
    expect(taken.reports).toEqual([file]);
    expect(taken.problems[0]?.message).toContain('the file wins');
    const broken = withSavedQueryReports(empty, [saved({ query: 'spend by nosuchthing' })], queryOptions);
    expect(broken.broken).toEqual(['saved-spend-by-country']);
    expect(broken.problems[0]?.message).toContain('no longer compiles');
  });

  it('exports as a report file pivotbot validate accepts, with its schedule and channel', async () => {
    const { mkdtemp, writeFile, rm } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const text = savedQueryYaml(
      saved({ query: 'top 5 campaigns by spend last 7 days where country = Brazil' }),
      queryOptions,
    );
    expect(text).toMatch(/^# pivotbot export spend-by-country: the saved query/);
    const doc = parseYaml(text) as Record<string, unknown>;
    expect(doc.schedule).toEqual({ cron: '30 8 * * 1,2,3,4,5', timezone: 'Europe/Berlin' });
    expect(doc.deliver).toEqual({ channels: ['C0MARKET01'], csv: true });
    const dir = await mkdtemp(join(tmpdir(), 'export-unit-'));
    try {
      await writeFile(join(dir, 'spend-by-country.yaml'), text);
      const loaded = await loadReports(dir, queryOptions);
      expect(loaded.problems).toEqual([]);
      expect(loaded.reports[0]?.definition.present.top).toBe(5);
      expect(loaded.reports[0]?.definition.query.filter).toEqual({ countryCode: { equals: 'BR' } });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    const { cron: _cron, ...atNine } = saved({ at: '09:00' });
    const daily = parseYaml(savedQueryYaml(atNine, queryOptions));
    expect((daily as { schedule: unknown }).schedule).toEqual({ at: '09:00', timezone: 'Europe/Berlin' });
  });
});
