import type pg from 'pg';
import type { StoreData } from '../storeSchema.js';
import { checkout } from './checkout.js';
import { type Collection, TABLES } from './postgresSchema.js';

/** Per collection: records in the source, rows newly written, and source records found in the database after the copy. */
export type CopyCounts = Record<Collection, { source: number; copied: number; present: number }>;

/**
 * Copies every record of a (validated, current-version) store document into the database's
 * tables in one transaction, keeping each collection's order. A record whose key is already
 * there is left as it is, so copying twice changes nothing. Counts are read back afterwards so
 * the caller can check that every source record is present.
 */
export async function copyStoreData(pool: pg.Pool, data: StoreData): Promise<CopyCounts> {
  const counts = {} as CopyCounts;
  const client = await checkout(pool);
  try {
    await client.query('BEGIN');
    try {
      await client.query("SELECT set_config('pivotbot.origin', 'migrate-store', true)");
      for (const table of TABLES) {
        const records = data[table.collection] as unknown[];
        const columns = ['key', 'body', ...table.columns.map((c) => c.name)];
        const sql = `INSERT INTO ${table.table} (${columns.join(', ')}) VALUES (${columns
          .map((_, i) => `$${i + 1}`)
          .join(', ')}) ON CONFLICT (key) DO NOTHING`;
        let copied = 0;
        for (const record of records) {
          const values = [table.key(record), JSON.stringify(record), ...table.columns.map((c) => c.of(record))];
          copied += (await client.query(sql, values)).rowCount ?? 0;
        }
        const keys = records.map((record) => table.key(record));
        const { rows } = await client.query<{ n: string }>(
          `SELECT count(*) AS n FROM ${table.table} WHERE key = ANY($1)`,
          [keys],
        );
        counts[table.collection] = { source: records.length, copied, present: Number(rows[0]?.n ?? 0) };
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  } finally {
    client.release();
  }
  return counts;
}
