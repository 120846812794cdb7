import { join } from 'node:path';
import { silentLogger } from '../../../src/core/index.js';
import {
  type AlertEvaluation,
  type AlertIncident,
  decodeStoreText,
  emptyStoreData,
  openStore,
  StoreInvalidRecordError,
} from '../../../src/store/index.js';
import { stopTestPostgres } from '../../support/postgres.js';
import { STORE_KINDS, useStores } from '../../support/storeFactories.js';
import { withTempDir } from '../../support/storeTestKit.js';

afterAll(stopTestPostgres);

const AT = '2026-03-01T09:00:00.000Z';

function incident(n: number, extra: Partial<AlertIncident> = {}): AlertIncident {
  return {
    id: `inc_${n}`,
    ruleId: 'cpi-spike',
    reportId: 'daily-kpi',
    entityKey: `campaign=${n}`,
    entityLabel: `Campaign ${n}`,
    state: 'open',
    channel: 'C9',
    values: [{ at: AT, value: 7 }],
    openedAt: AT,
    updatedAt: AT,
    streak: 2,
    lastValue: 7,
    threshold: 6,
    lastNotifiedAt: AT,
    ...extra,
  };
}

function evaluation(extra: Partial<AlertEvaluation> = {}): AlertEvaluation {
  return {
    ruleKey: 'daily-kpi/cpi-spike',
    reportId: 'daily-kpi',
    ruleId: 'cpi-spike',
    lastEvaluatedAt: AT,
    evaluated: 50,
    breaching: 3,
    skipped: 1,
    pending: [{ entityKey: 'campaign=99', streak: 1, since: AT, lastValue: 6.5 }],
    ...extra,
  };
}

describe.each(STORE_KINDS)('incident records of alert evaluation (%s store)', (kind) => {
  const stores = useStores(kind);

  it('records an evaluation and its incidents, upserting by id', async () => {
    const store = await stores.open();
    expect(store.incidents.getEvaluation('daily-kpi', 'cpi-spike')).toBeUndefined();
    await store.incidents.applyEvaluation({ evaluation: evaluation(), incidents: [incident(1), incident(2)] });
    const later = '2026-03-01T10:00:00.000Z';
    await store.incidents.applyEvaluation({
      evaluation: evaluation({ lastEvaluatedAt: later, pending: [] }),
      incidents: [incident(2, { state: 'resolved', resolvedAt: later, updatedAt: later })],
    });
    expect(store.incidents.getEvaluation('daily-kpi', 'cpi-spike')).toMatchObject({
      lastEvaluatedAt: later,
      pending: [],
    });
    expect(store.incidents.listEvaluations()).toHaveLength(1);
    expect(store.incidents.listOpen().map((i) => i.id)).toEqual(['inc_1']);
    expect(store.incidents.listByReportRule('daily-kpi', 'cpi-spike').map((i) => i.state)).toEqual([
      'resolved',
      'open',
    ]);
    expect(store.incidents.listByReportRule('other-report', 'cpi-spike')).toEqual([]);
  });

  it('changes nothing when one record of the batch is invalid', async () => {
    const store = await stores.open();
    const bad = incident(3, { lastNotifiedAt: 'yesterday' });
    await expect(
      store.incidents.applyEvaluation({ evaluation: evaluation(), incidents: [incident(1), bad] }),
    ).rejects.toBeInstanceOf(StoreInvalidRecordError);
    expect(store.incidents.listOpen()).toEqual([]);
    expect(store.incidents.getEvaluation('daily-kpi', 'cpi-spike')).toBeUndefined();
  });

  it('saves an acknowledged or snoozed incident in place', async () => {
    const store = await stores.open();
    await store.incidents.applyEvaluation({ evaluation: evaluation(), incidents: [incident(1)] });
    const acked = {
      ...incident(1),
      acknowledgedBy: 'U1',
      acknowledgedAt: AT,
      snoozedUntil: '2026-03-01T13:00:00.000Z',
    };
    await store.incidents.save(acked);
    expect(store.incidents.get('inc_1')).toEqual(acked);
    expect(store.incidents.listOpen()).toHaveLength(1);
  });
});

describe('the store file format', () => {
  it('loads a store file written before evaluation existed (no alertEvaluations, bare incidents)', () => {
    const old = { ...emptyStoreData(), alertEvaluations: undefined };
    const bare = {
      id: 'i1',
      ruleId: 'r',
      entityKey: 'e',
      state: 'open',
      channel: 'C1',
      values: [],
      openedAt: AT,
      updatedAt: AT,
    };
    const decoded = decodeStoreText(JSON.stringify({ ...old, incidents: [bare] }), 'x.json');
    expect(decoded.data.alertEvaluations).toEqual([]);
    expect(decoded.data.incidents[0]).toEqual(bare);
  });
  it('writes the store file once per evaluation, whatever the number of entities', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'store.json');
      let renames = 0;
      const store = await openStore({
        path,
        logger: silentLogger(),
        fs: {
          rename: async (from, to) => {
            if (to === path) renames++;
            const { rename } = await import('node:fs/promises');
            await rename(from, to);
          },
        },
      });
      try {
        const before = renames;
        const many = Array.from({ length: 50 }, (_, n) => incident(n));
        await store.incidents.applyEvaluation({ evaluation: evaluation(), incidents: many });
        expect(renames - before).toBe(1);
        const reopened = decodeStoreText(await (await import('node:fs/promises')).readFile(path, 'utf8'), path);
        expect(reopened.data.incidents).toHaveLength(50);
        expect(reopened.data.alertEvaluations[0]?.ruleKey).toBe('daily-kpi/cpi-spike');
        const tick = Array.from({ length: 20 }, (_, r) => ({
          evaluation: evaluation({ ruleKey: `daily-kpi/rule-${r}`, ruleId: `rule-${r}` }),
          incidents: [incident(1000 + r, { ruleId: `rule-${r}` })],
        }));
        const beforeTick = renames;
        await store.incidents.applyEvaluations(tick);
        expect(renames - beforeTick).toBe(1);
        expect(store.incidents.listEvaluations()).toHaveLength(21);
      } finally {
        await store.close();
      }
    });
  });
});
