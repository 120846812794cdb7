import type pg from 'pg';
import type { Logger } from '../../core/index.js';
import type { LeaseKind, ReplicaLeases } from '../ReplicaStore.js';

/** Kept in the schema by migration 2 (see `MIGRATIONS`). */
export const LEASE_TABLES = `
  CREATE TABLE pivotbot_replicas (owner text PRIMARY KEY, expires_at timestamptz NOT NULL, started_at timestamptz NOT NULL DEFAULT now());
  CREATE TABLE pivotbot_leases (key text PRIMARY KEY, owner text NOT NULL, taken_at timestamptz NOT NULL DEFAULT now());
  CREATE INDEX pivotbot_leases_owner ON pivotbot_leases (owner);
  CREATE TABLE pivotbot_request_keys (key text PRIMARY KEY, expires_at timestamptz NOT NULL);`;

const leaseKey = (kind: LeaseKind, id: string): string => `${kind}:${id}`;

/** A lease's holder is live while its replica row has not expired (database time: replicas' clocks may differ). */
const HOLDER_LIVE = `EXISTS (SELECT 1 FROM pivotbot_replicas p WHERE p.owner = l.owner AND p.expires_at > now())`;

const ORPHANS: Record<LeaseKind, string> = {
  run: `SELECT r.key AS id FROM pivotbot_runs r
          LEFT JOIN pivotbot_leases l ON l.key = 'run:' || r.key
         WHERE r.status = 'running'
           AND CASE WHEN l.key IS NULL THEN (r.body->>'startedAt')::timestamptz < now() - $1 * interval '1 millisecond'
                    ELSE NOT ${HOLDER_LIVE} END
         ORDER BY r.seq`,
  job: `SELECT j.key AS id FROM pivotbot_jobs j
          LEFT JOIN pivotbot_leases l ON l.key = 'job:' || j.key
         WHERE j.body->>'status' IN ('queued', 'running')
           AND CASE WHEN l.key IS NULL THEN (j.body->>'createdAt')::timestamptz < now() - $1 * interval '1 millisecond'
                    ELSE NOT ${HOLDER_LIVE} END
         ORDER BY j.seq`,
};

/** How often a replica waiting for an `exclusive` lock asks again. */
const LOCK_POLL_MS = 100;

/**
 * Starts this process's heartbeat on `pool` and returns its leases.
 *
 * @example const leases = await startReplicaLeases(pool, { owner: origin, leaseMs: 30_000, logger });
 *          await leases.hold('run', run.id); … for (const id of await leases.orphans('run')) if (await leases.adopt('run', id)) …
 */
export async function startReplicaLeases(
  pool: pg.Pool,
  options: { owner: string; leaseMs: number; logger: Logger; location: string },
): Promise<ReplicaLeases> {
  const { owner, leaseMs, logger, location } = options;
  let closed = false;
  let warned = false;
  /** When the heartbeat was last written (this process's clock; only its age is used). */
  let beatAt = Number.NEGATIVE_INFINITY;
  let beats = 0;
  /** Leases whose first write failed: written with the next heartbeat, unless another replica took the work meanwhile. */
  const unrecorded = new Set<string>();
  /**
   * Locks whose holder kept them past a wait (frozen, or its session hung), until when this
   * replica asks for them once without waiting: steps it took over must not queue up behind it.
   */
  const givenUp = new Map<string, number>();

  const heartbeat = async (): Promise<boolean> => {
    if (closed) return false;
    try {
      await pool.query(
        `INSERT INTO pivotbot_replicas (owner, expires_at) VALUES ($1, now() + $2 * interval '1 millisecond')
         ON CONFLICT (owner) DO UPDATE SET expires_at = EXCLUDED.expires_at`,
        [owner, leaseMs],
      );
      if (unrecorded.size > 0) {
        const keys = [...unrecorded];
        await pool.query(
          'INSERT INTO pivotbot_leases (key, owner) SELECT unnest($1::text[]), $2 ON CONFLICT (key) DO NOTHING',
          [keys, owner],
        );
        for (const key of keys) unrecorded.delete(key);
      }
      // Request keys are only needed for their TTL; any replica may clear the expired ones.
      if (++beats % 30 === 0) {
        await pool.query('DELETE FROM pivotbot_request_keys WHERE expires_at < now()');
        // Rows of processes that died without removing theirs (SIGKILL, a lost host): a dead
        // holder counts as dead with or without its row, so a day later the row goes.
        await pool.query("DELETE FROM pivotbot_replicas WHERE expires_at < now() - interval '1 day'");
      }
      if (warned) logger.info({ store: location }, 'replica heartbeat written again');
      warned = false;
      beatAt = Date.now();
      return true;
    } catch (error) {
      if (!warned) logger.warn({ err: error, store: location }, 'replica heartbeat not written; retrying');
      warned = true;
      return false;
    }
  };

  const fresh = async (): Promise<boolean> => Date.now() - beatAt < Math.max(100, leaseMs / 3) || (await heartbeat());

  // The first heartbeat must land: a replica that cannot announce itself would see its own work adopted.
  await pool.query(
    `INSERT INTO pivotbot_replicas (owner, expires_at) VALUES ($1, now() + $2 * interval '1 millisecond')
     ON CONFLICT (owner) DO UPDATE SET expires_at = EXCLUDED.expires_at`,
    [owner, leaseMs],
  );
  beatAt = Date.now();
  const timer = setInterval(() => void heartbeat(), Math.max(100, Math.floor(leaseMs / 3)));
  timer.unref();

  const quietly = async (what: string, text: string, params: unknown[]): Promise<boolean> => {
    try {
      await pool.query(text, params);
      return true;
    } catch (error) {
      logger.warn({ err: error, store: location }, `${what} not written yet`);
      return false;
    }
  };

  return {
    owner,
    leaseMs,
    async hold(kind, id) {
      await fresh();
      const key = leaseKey(kind, id);
      const written = await quietly(
        'lease',
        'INSERT INTO pivotbot_leases (key, owner) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET owner = EXCLUDED.owner, taken_at = now()',
        [key, owner],
      );
      if (!written) unrecorded.add(key);
    },
    async release(kind, id) {
      const key = leaseKey(kind, id);
      unrecorded.delete(key);
      await quietly('lease release', 'DELETE FROM pivotbot_leases WHERE key = $1', [key]);
    },
    async orphans(kind) {
      // Runs and jobs count as orphaned after a lease without one recorded.
      const { rows } = await pool.query<{ id: string }>(ORPHANS[kind], [leaseMs]);
      return rows.map((row) => row.id);
    },
    async adopt(kind, id) {
      // One statement: a missing lease is inserted by the first caller; a dead holder's is taken
      // by the first caller; a live holder's (including an adopter's) is left alone.
      const { rows } = await pool.query(
        `INSERT INTO pivotbot_leases AS l (key, owner) VALUES ($1, $2)
         ON CONFLICT (key) DO UPDATE SET owner = EXCLUDED.owner, taken_at = now()
           WHERE l.owner <> EXCLUDED.owner AND NOT ${HOLDER_LIVE}
         RETURNING l.key`,
        [leaseKey(kind, id), owner],
      );
      return rows.length === 1;
    },
    async firstSeen(key, ttlMs) {
      const { rows } = await pool.query(
        `INSERT INTO pivotbot_request_keys AS k (key, expires_at) VALUES ($1, now() + $2 * interval '1 millisecond')
         ON CONFLICT (key) DO UPDATE SET expires_at = EXCLUDED.expires_at WHERE k.expires_at < now()
         RETURNING k.key`,
        [key, ttlMs],
      );
      return rows.length === 1;
    },
    exclusive: (key, waitMs, work) => exclusive({ pool, logger, givenUp }, key, waitMs, work),
    fresh,
    heartbeat,
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      await quietly('replica removal', 'DELETE FROM pivotbot_replicas WHERE owner = $1', [owner]);
    },
  };
}

/** `ReplicaLeases.exclusive`: a PostgreSQL advisory lock on a pooled session of its own. */
async function exclusive<T>(
  { pool, logger, givenUp }: { pool: pg.Pool; logger: Logger; givenUp: Map<string, number> },
  key: string,
  waitMs: number,
  work: () => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let held = false;
  let broken = false;
  try {
    const deadline = Date.now() + ((givenUp.get(key) ?? 0) > Date.now() ? 0 : waitMs);
    for (;;) {
      const { rows } = await client.query<{ ok: boolean }>(
        'SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS ok',
        [key],
      );
      if (rows[0]?.ok === true) {
        held = true;
        givenUp.delete(key);
        break;
      }
      if (Date.now() >= deadline) {
        logger.warn({ key, waitMs }, 'another replica still holds this lock; going ahead without it');
        givenUp.set(key, Date.now() + 10 * waitMs);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
    }
    return await work();
  } finally {
    if (held) {
      // A session whose unlock failed is closed instead, which releases the lock as well.
      await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [key]).catch(() => {
        broken = true;
      });
    }
    client.release(broken);
  }
}
