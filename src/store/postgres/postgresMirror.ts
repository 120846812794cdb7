import { isDeepStrictEqual } from 'node:util';
import { describeIssues } from '../decodeStoreText.js';
import { StoreCorruptError } from '../StoreError.js';
import { deepFreeze } from '../storeContext.js';
import { emptyStoreData, type StoreData } from '../storeSchema.js';
import { type Collection, TABLES, type TableSpec } from './postgresSchema.js';

/** A row as read from a collection's table. */
export interface Row {
  key: string;
  seq: number;
  body: unknown;
}

/**
 * The in-memory copy of the database that serves the store's synchronous reads: the same
 * `StoreData` the JSON store holds (arrays in insertion order, frozen records), plus each
 * record's `seq` so rows arriving from other replicas land in their place.
 */
export interface Mirror {
  data: StoreData;
  seqs: Record<Collection, Map<string, number>>;
}

export function emptyMirror(): Mirror {
  return { data: emptyStoreData(), seqs: emptySeqs() };
}

function emptySeqs(): Record<Collection, Map<string, number>> {
  return Object.fromEntries(TABLES.map((t) => [t.collection, new Map()])) as Record<Collection, Map<string, number>>;
}

/** Builds a mirror from every table's rows, ordered by seq; bad rows stop start-up (STORE_CORRUPT). */
export function mirrorFromRows(rowsByCollection: ReadonlyMap<Collection, readonly Row[]>, location: string): Mirror {
  const mirror = emptyMirror();
  for (const table of TABLES) {
    const records: unknown[] = [];
    for (const row of rowsByCollection.get(table.collection) ?? []) {
      records.push(decodeRow(table, row, location));
      mirror.seqs[table.collection].set(row.key, row.seq);
    }
    (mirror.data as unknown as Record<Collection, unknown[]>)[table.collection] = records;
  }
  return mirror;
}

export function decodeRow(table: TableSpec, row: Row, location: string): unknown {
  const parsed = table.schema.safeParse(row.body);
  if (!parsed.success) {
    throw new StoreCorruptError(
      `${location}: row "${row.key}" of ${table.table} is not a valid ${table.kind}: ${describeIssues(parsed.error)}`,
      { details: { table: table.table, key: row.key } },
    );
  }
  return deepFreeze(parsed.data);
}

/** A copy a write may change: new arrays, the same (frozen) records. */
export function draftOf(data: StoreData): StoreData {
  const draft = { ...data };
  for (const table of TABLES) {
    const c = table.collection;
    (draft as unknown as Record<Collection, unknown[]>)[c] = [...(data[c] as unknown[])];
  }
  return draft;
}

export interface CollectionDiff {
  table: TableSpec;
  inserts: unknown[];
  updates: unknown[];
  deletes: string[];
}

/** What a write changed, per collection: records are frozen, so a changed record is a new object. */
export function diffData(before: StoreData, after: StoreData): CollectionDiff[] {
  const out: CollectionDiff[] = [];
  for (const table of TABLES) {
    const old = new Map<string, unknown>();
    for (const record of before[table.collection] as unknown[]) old.set(table.key(record), record);
    const diff: CollectionDiff = { table, inserts: [], updates: [], deletes: [] };
    for (const record of after[table.collection] as unknown[]) {
      const key = table.key(record);
      const previous = old.get(key);
      if (previous === undefined) diff.inserts.push(record);
      else if (previous !== record) diff.updates.push(record);
      old.delete(key);
    }
    diff.deletes = [...old.keys()];
    if (diff.inserts.length + diff.updates.length + diff.deletes.length > 0) out.push(diff);
  }
  return out;
}

/**
 * Applies rows read from one table (another replica's changes): each row replaces its record or
 * is inserted in seq order; a record for which `covered` is true but that no row returned was
 * deleted, and goes too.
 */
export function applyRows(
  mirror: Mirror,
  table: TableSpec,
  rows: readonly Row[],
  covered: (record: unknown) => boolean,
  location: string,
): void {
  const c = table.collection;
  const seqs = mirror.seqs[c];
  const byKey = new Map(rows.map((row) => [row.key, row]));
  let records = (mirror.data[c] as unknown[]).filter((record) => {
    const key = table.key(record);
    if (byKey.has(key) || !covered(record)) return true;
    seqs.delete(key);
    return false;
  });
  for (const row of rows) {
    const record = decodeRow(table, row, location);
    const at = records.findIndex((r) => table.key(r) === row.key);
    if (at >= 0) {
      // An unchanged record keeps its identity: re-reading rows does not churn what readers hold.
      if (!isDeepStrictEqual(records[at], record)) records[at] = record;
    } else {
      let position = records.length;
      while (position > 0 && (seqs.get(table.key(records[position - 1])) ?? 0) > row.seq) position--;
      records = [...records.slice(0, position), record, ...records.slice(position)];
    }
    seqs.set(row.key, row.seq);
  }
  (mirror.data as unknown as Record<Collection, unknown[]>)[c] = records;
}
