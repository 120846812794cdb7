import {
  decodeStoreText,
  emptyStoreData,
  migrations,
  STORE_VERSION,
  StoreCorruptError,
  StoreTooNewError,
} from '../../../src/store/index.js';

const at = '2026-03-01T09:00:00.000Z';
const run = {
  id: 'run_1',
  report: 'daily',
  trigger: 'schedule',
  idempotencyKey: 'k',
  status: 'succeeded',
  startedAt: at,
  finishedAt: at,
  durationMs: 0,
};

describe('decodeStoreText', () => {
  it('has one migration per version step', () => {
    expect(migrations).toHaveLength(STORE_VERSION);
  });

  it('reads a current-version file as is', () => {
    const data = { ...emptyStoreData(), runs: [{ ...run, attempt: 1 }] };
    expect(decodeStoreText(JSON.stringify(data), 'f.json')).toEqual({ data, fromVersion: STORE_VERSION });
  });

  it('migrates an unversioned (version 0) file: adds missing collections, scheduler records and attempts', () => {
    const v0 = {
      subscriptions: [{ id: 's1', report: 'daily', channel: 'C1', createdBy: 'U1', createdAt: at, updatedAt: at }],
      runs: [run],
      lastFires: { daily: at },
    };
    const { data, fromVersion } = decodeStoreText(JSON.stringify(v0), 'old.json');
    expect(fromVersion).toBe(0);
    expect(data).toEqual({
      version: 1,
      jobs: [],
      subscriptions: v0.subscriptions,
      runs: [{ ...run, attempt: 1 }],
      incidents: [],
      schedules: [{ scheduleId: 'daily', lastFireAt: at, updatedAt: at }],
      alertEvaluations: [],
    });
  });

  it('refuses a file from a newer version, naming both versions', () => {
    const text = JSON.stringify({ ...emptyStoreData(), version: STORE_VERSION + 1 });
    expect(() => decodeStoreText(text, 'f.json')).toThrow(StoreTooNewError);
    expect(() => decodeStoreText(text, 'f.json')).toThrow(/version 2.*up to version 1/);
  });

  it.each([
    ['an empty file', '', /empty/],
    ['whitespace', '  \n', /empty/],
    ['a truncated file', JSON.stringify(emptyStoreData()).slice(0, 30), /not valid JSON.*truncated/],
    ['an array', '[]', /JSON object/],
    ['null', 'null', /JSON object/],
    ['a bad version', JSON.stringify({ ...emptyStoreData(), version: 'one' }), /"version" must be a whole number/],
    [
      'a record failing the schema',
      JSON.stringify({ ...emptyStoreData(), runs: [{ ...run, attempt: 1, startedAt: 'yesterday' }] }),
      /runs\[0\]\.startedAt/,
    ],
    [
      'duplicate ids',
      JSON.stringify({
        ...emptyStoreData(),
        runs: [
          { ...run, attempt: 1 },
          { ...run, attempt: 2 },
        ],
      }),
      /duplicate run id "run_1"/,
    ],
    ['a missing collection', JSON.stringify({ version: 1, jobs: [] }), /subscriptions/],
  ])('calls %s corrupt, saying why', (_name, text, why) => {
    let error: unknown;
    try {
      decodeStoreText(text, 'data/pivotbot.json');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(StoreCorruptError);
    expect((error as StoreCorruptError).code).toBe('STORE_CORRUPT');
    expect((error as Error).message).toMatch(/^data\/pivotbot\.json is not a valid pivotbot store: /);
    expect((error as Error).message).toMatch(why);
  });
});
