import { emptyStoreData, type Subscription } from '../../../src/store/index.js';
import { applyRows, diffData, draftOf, emptyMirror } from '../../../src/store/postgres/postgresMirror.js';
import { MIGRATIONS, TABLES, tableOf } from '../../../src/store/postgres/postgresSchema.js';

const AT = '2026-03-01T09:00:00.000Z';
const sub = (id: string, channel = 'C1'): Subscription =>
  Object.freeze({ id, report: 'daily', channel, createdBy: 'U1', createdAt: AT, updatedAt: AT });

describe('the PostgreSQL tables', () => {
  it('have one table for every collection of the store document, so none is left in memory only', () => {
    const collections = Object.keys(emptyStoreData()).filter((key) => key !== 'version');
    expect(TABLES.map((t) => t.collection).sort()).toEqual(collections.sort());
  });

  it('are created by the migrations, each announcing its changes', () => {
    const sql = MIGRATIONS.join('\n');
    for (const table of TABLES) {
      expect(sql).toContain(`CREATE TABLE ${table.table} (`);
      expect(sql).toContain(`CREATE TRIGGER ${table.table}_changed`);
    }
  });
});

describe('diffData', () => {
  it('sorts a write into inserts, updates (new objects) and deletes, per collection', () => {
    const before = { ...emptyStoreData(), subscriptions: [sub('a'), sub('b'), sub('c')] };
    const after = draftOf(before);
    after.subscriptions[1] = { ...sub('b'), channel: 'C2' };
    after.subscriptions = after.subscriptions.filter((s) => s.id !== 'c');
    after.subscriptions.push(sub('d'));
    const diffs = diffData(before, after);
    expect(diffs).toHaveLength(1);
    expect(diffs[0]?.table.collection).toBe('subscriptions');
    expect(diffs[0]?.inserts.map((s) => (s as Subscription).id)).toEqual(['d']);
    expect(diffs[0]?.updates.map((s) => (s as Subscription).id)).toEqual(['b']);
    expect(diffs[0]?.deletes).toEqual(['c']);
  });

  it('finds nothing to write when the draft holds the same objects', () => {
    const before = { ...emptyStoreData(), subscriptions: [sub('a')] };
    expect(diffData(before, draftOf(before))).toEqual([]);
  });
});

describe('applyRows', () => {
  const table = tableOf('subscriptions');
  const row = (id: string, seq: number, channel = 'C1') => ({ key: id, seq, body: sub(id, channel) });

  it.each([
    ['appends a newer row', [row('x', 9)], ['a', 'b', 'x'], 'C1'],
    ['puts an older row in its place', [row('x', 2)], ['a', 'x', 'b'], 'C1'],
    ['replaces a changed row in place', [row('a', 1, 'C9')], ['a', 'b'], 'C9'],
  ])('%s', (_name, rows, ids, channelOfA) => {
    const mirror = emptyMirror();
    applyRows(mirror, table, [row('a', 1), row('b', 3)], () => false, 'test');
    applyRows(mirror, table, rows, () => false, 'test');
    expect(mirror.data.subscriptions.map((s) => s.id)).toEqual(ids);
    expect(mirror.data.subscriptions[0]?.channel).toBe(channelOfA);
  });

  it('removes a record the rows no longer hold when the query covered it, and keeps unchanged ones as they were', () => {
    const mirror = emptyMirror();
    applyRows(mirror, table, [row('a', 1), row('b', 2)], () => false, 'test');
    const kept = mirror.data.subscriptions[0];
    applyRows(mirror, table, [row('a', 1)], () => true, 'test');
    expect(mirror.data.subscriptions.map((s) => s.id)).toEqual(['a']);
    expect(mirror.data.subscriptions[0]).toBe(kept);
    expect(mirror.seqs.subscriptions.has('b')).toBe(false);
  });

  it('refuses a row that is not a valid record, naming the table and key', () => {
    const mirror = emptyMirror();
    expect(() => applyRows(mirror, table, [{ key: 'bad', seq: 1, body: { id: 'bad' } }], () => false, 'db')).toThrow(
      /row "bad" of pivotbot_subscriptions is not a valid subscription/,
    );
  });
});
