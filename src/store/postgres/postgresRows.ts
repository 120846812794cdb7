import type pg from 'pg';
import { checkout } from './checkout.js';
import type { CollectionDiff, Row } from './postgresMirror.js';
import { type Collection, TABLES, type TableSpec } from './postgresSchema.js';

interface RawRow {
  key: string;
  seq: string;
  body: unknown;
}

const toRow = (raw: RawRow): Row => ({ key: raw.key, seq: Number(raw.seq), body: raw.body });

/** Every table's rows in one consistent snapshot, in insertion order. */
export async function selectAllRows(pool: pg.Pool): Promise<Map<Collection, Row[]>> {
  const client = await checkout(pool);
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const out = new Map<Collection, Row[]>();
    for (const table of TABLES) {
      const { rows } = await client.query<RawRow>(`SELECT key, seq, body FROM ${table.table} ORDER BY seq`);
      out.set(table.collection, rows.map(toRow));
    }
    await client.query('COMMIT');
    client.release();
    return out;
  } catch (error) {
    // A connection left inside a failed transaction must not go back to the pool.
    client.release(error instanceof Error ? error : true);
    throw error;
  }
}

/** The rows of one table matching `where` (SQL over its columns, with `$1…` parameters). */
export async function selectRows(
  pool: pg.Pool,
  table: TableSpec,
  where: string,
  params: readonly unknown[],
): Promise<Row[]> {
  const { rows } = await pool.query<RawRow>(`SELECT key, seq, body FROM ${table.table} WHERE ${where} ORDER BY seq`, [
    ...params,
  ]);
  return rows.map(toRow);
}

/**
 * Writes one store change in one transaction: deletions, then changed records (upserted by
 * key), then new records (plain inserts, so a key or a claim another replica took first fails
 * with a unique violation instead of being overwritten). `origin` marks the transaction's change
 * notifications so this process can skip its own. Resolves to the seq of each inserted record.
 */
export async function writeDiff(
  pool: pg.Pool,
  origin: string,
  diffs: readonly CollectionDiff[],
): Promise<Map<Collection, Map<string, number>>> {
  const inserted = new Map<Collection, Map<string, number>>();
  const client = await checkout(pool);
  try {
    try {
      // One round trip: the origin is this process's own hex mark, never user text.
      await client.query(`BEGIN; SELECT set_config('pivotbot.origin', '${origin.replace(/[^\w-]/g, '')}', true)`);
      for (const { table, deletes } of diffs) {
        if (deletes.length > 0) await client.query(`DELETE FROM ${table.table} WHERE key = ANY($1)`, [deletes]);
      }
      for (const { table, updates } of diffs) {
        const columns = table.columns.map((c) => c.name);
        const set = ['body', ...columns].map((c) => `${c} = excluded.${c}`).join(', ');
        for (const record of updates) {
          await client.query(`${insertSql(table)} ON CONFLICT (key) DO UPDATE SET ${set}`, values(table, record));
        }
      }
      for (const { table, inserts } of diffs) {
        const seqs = new Map<string, number>();
        for (const record of inserts) {
          const { rows } = await client.query<{ seq: string }>(
            `${insertSql(table)} RETURNING seq`,
            values(table, record),
          );
          seqs.set(table.key(record), Number(rows[0]?.seq));
        }
        if (seqs.size > 0) inserted.set(table.collection, seqs);
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  } finally {
    client.release();
  }
  return inserted;
}

function insertSql(table: TableSpec): string {
  const columns = ['key', 'body', ...table.columns.map((c) => c.name)];
  return `INSERT INTO ${table.table} (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`;
}

function values(table: TableSpec, record: unknown): unknown[] {
  return [table.key(record), JSON.stringify(record), ...table.columns.map((c) => c.of(record))];
}

/** A PostgreSQL unique violation (SQLSTATE 23505): another writer holds the key or the claim. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}
