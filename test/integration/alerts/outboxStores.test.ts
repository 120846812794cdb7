/**
 * The outbox fields in both stores: an incident's owed edit and replies survive a reopen of the
 * lowdb file and of the PostgreSQL store (records kept as JSON, checked by the same schema), and a
 * malformed owed reply is refused before anything is written.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../../src/core/index.js';
import {
  type AlertIncident,
  openPostgresStore,
  openStore,
  type Store,
  StoreInvalidRecordError,
} from '../../../src/store/index.js';
import { freshDatabase, stopTestPostgres } from '../../support/postgres.js';

const AT = '2026-11-23T09:00:00.000Z';
const incident: AlertIncident = {
  id: 'inc_0123456789abcdef0123',
  ruleId: 'cpi-high',
  reportId: 'daily-kpi',
  entityKey: 'countryCode=BR',
  state: 'resolved',
  channel: 'C0ALERTS1',
  threadTs: '1700000000.000100',
  values: [{ at: AT, value: 3 }],
  openedAt: '2026-11-23T08:00:00.000Z',
  updatedAt: AT,
  resolvedAt: AT,
  owedEdit: true,
  owedReplies: [
    {
      id: `resolved@${AT}`,
      kind: 'resolved',
      at: AT,
      value: 3,
      condition: { kind: 'above', threshold: 6, recovery: 5 },
      sentTo: ['1700000000.000100'],
    },
    {
      id: `reminder@${AT}`,
      kind: 'reminder',
      at: AT,
      value: 9,
      previousValue: 8,
      condition: {
        kind: 'anomaly',
        baseline: 'same_weekday',
        weeks: 4,
        sensitivity: 3,
        direction: 'up',
        median: 4,
        low: 2,
        high: 6,
        score: 5,
      },
    },
  ],
};
const evaluation = {
  ruleKey: 'daily-kpi/cpi-high',
  reportId: 'daily-kpi',
  ruleId: 'cpi-high',
  lastEvaluatedAt: AT,
  evaluated: 1,
  breaching: 0,
  skipped: 0,
  pending: [],
};

afterAll(stopTestPostgres);

describe.each([
  ['the lowdb file', 'file'],
  ['PostgreSQL', 'postgres'],
] as const)('the outbox in %s', (_name, kind) => {
  let dir: string;
  let open: () => Promise<Store>;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pivotbot-outbox-'));
    const url = kind === 'postgres' ? await freshDatabase('pivotbot_outbox') : '';
    open = () =>
      kind === 'postgres'
        ? openPostgresStore({ url, logger: silentLogger() })
        : openStore({ path: join(dir, 'store.json'), logger: silentLogger() });
  }, 120_000);

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps the owed edit and replies across a reopen', async () => {
    const first = await open();
    await first.incidents.applyEvaluation({ evaluation, incidents: [incident] });
    await first.close();
    const again = await open();
    try {
      expect(again.incidents.get(incident.id)).toEqual(incident);
    } finally {
      await again.close();
    }
  }, 60_000);

  it('refuses a malformed owed reply and writes nothing', async () => {
    const store = await open();
    try {
      const bad = {
        ...incident,
        id: 'inc_bad0000000000000000',
        owedReplies: [{ ...incident.owedReplies?.[0], kind: 'shout' }],
      } as unknown as AlertIncident;
      await expect(store.incidents.applyEvaluation({ evaluation, incidents: [bad] })).rejects.toBeInstanceOf(
        StoreInvalidRecordError,
      );
      expect(store.incidents.get('inc_bad0000000000000000')).toBeUndefined();
    } finally {
      await store.close();
    }
  }, 60_000);
});
