/**
 * The sandbox's DuckDB: one instance (in memory for `small`, a temporary file otherwise) and a
 * small pool of connections so queries and async jobs run side by side.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import type { SqlValue } from './sql/SqlParams.js';

/** A row as DuckDB's JSON conversion gives it: BIGINT/HUGEINT as strings, DOUBLE as numbers. */
export type SqlRow = Record<string, unknown>;

export interface SandboxDbOptions {
  /** Keep the database in memory (fast start) instead of a temporary file (compressed, bounded RSS). */
  inMemory: boolean;
  connections?: number;
  threads?: number;
  memoryLimit?: string;
}

export class SandboxDb {
  private readonly idle: DuckDBConnection[] = [];
  private readonly all: DuckDBConnection[] = [];
  private readonly waiters: ((c: DuckDBConnection) => void)[] = [];
  private closed = false;

  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly dir: string | null,
  ) {}

  /** Opens the database and its connection pool. @example const db = await SandboxDb.open({ inMemory: true }); */
  static async open(options: SandboxDbOptions): Promise<SandboxDb> {
    const dir = options.inMemory ? null : await mkdtemp(join(tmpdir(), 'pivotbot-sandbox-db-'));
    const config: Record<string, string> = { threads: String(options.threads ?? 2) };
    if (options.memoryLimit !== undefined) config.memory_limit = options.memoryLimit;
    if (dir !== null) config.temp_directory = join(dir, 'spill');
    const instance = await DuckDBInstance.create(dir === null ? ':memory:' : join(dir, 'sandbox.duckdb'), config);
    const db = new SandboxDb(instance, dir);
    for (let i = 0; i < (options.connections ?? 4); i++) {
      const connection = await instance.connect();
      await connection.run(`SET TimeZone = 'UTC'`);
      db.all.push(connection);
      db.idle.push(connection);
    }
    return db;
  }

  /** Runs `fn` with a connection of its own; waits for one when all are busy. */
  async withConnection<T>(fn: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    const connection = await this.acquire();
    try {
      return await fn(connection);
    } finally {
      this.release(connection);
    }
  }

  /** Rows of a query as JSON-friendly objects; `params` are the values of its `$n` placeholders. */
  async query(sql: string, params: readonly SqlValue[] = []): Promise<SqlRow[]> {
    return this.withConnection(
      async (c) =>
        (
          await (params.length === 0 ? c.runAndReadAll(sql) : c.runAndReadAll(sql, [...params]))
        ).getRowObjectsJson() as SqlRow[],
    );
  }

  /** Runs statements for their effect; `params` are the values of its `$n` placeholders (one statement then). */
  async exec(sql: string, params: readonly SqlValue[] = []): Promise<void> {
    await this.withConnection(async (c) => {
      await (params.length === 0 ? c.run(sql) : c.run(sql, [...params]));
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const c of this.all) {
      try {
        c.interrupt();
      } catch {
        // already idle
      }
      c.closeSync();
    }
    this.instance.closeSync();
    if (this.dir !== null) await rm(this.dir, { recursive: true, force: true });
  }

  private acquire(): Promise<DuckDBConnection> {
    if (this.closed) return Promise.reject(new Error('the sandbox database is closed'));
    const connection = this.idle.pop();
    if (connection !== undefined) return Promise.resolve(connection);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private release(connection: DuckDBConnection): void {
    const waiter = this.waiters.shift();
    if (waiter !== undefined) waiter(connection);
    else this.idle.push(connection);
  }
}
