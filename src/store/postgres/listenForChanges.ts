import pg from 'pg';
import type { Logger } from '../../core/index.js';
import { StoreLockedError } from '../StoreError.js';
import { LOCK_CLASS, SINGLE_PROCESS_LOCK_ID } from './migratePostgres.js';
import { CHANGE_CHANNEL } from './postgresSchema.js';

export interface ChangeListenerOptions {
  url: string;
  location: string;
  /** This process's mark on its own transactions; its own changes are not reported back. */
  origin: string;
  logger: Logger;
  /** Also hold the one-process advisory lock on this session (`exclusive` in openPostgresStore). */
  exclusive: boolean;
  /** A row of `table` with `key` was inserted, changed or deleted by another process. */
  onChange(table: string, key: string): void;
  /** The session was lost and is back: changes may have been missed. */
  onReconnect(): void;
  /** Delay before reconnecting after the session is lost (default 1 s). */
  reconnectDelayMs?: number;
}

export interface ChangeListener {
  close(): Promise<void>;
}

/**
 * One dedicated session that LISTENs for the tables' change notifications (and, with
 * `exclusive`, holds the session-level advisory lock that keeps a second pivotbot off the same
 * database). A lost session is re-opened after a delay; `onReconnect` then lets the caller
 * reload what it may have missed.
 */
export async function listenForChanges(options: ChangeListenerOptions): Promise<ChangeListener> {
  const { logger, location } = options;
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (): Promise<pg.Client> => {
    const next = new pg.Client({ connectionString: options.url });
    next.on('error', (error) => {
      logger.warn({ err: error, store: location }, 'store change listener lost its database session');
    });
    await next.connect();
    try {
      if (options.exclusive) {
        const { rows } = await next.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS locked', [
          LOCK_CLASS,
          SINGLE_PROCESS_LOCK_ID,
        ]);
        if (rows[0]?.locked !== true) {
          throw new StoreLockedError(
            `Another process holds the store database ${location} exclusively. ` +
              'Stop it, or give this one its own PIVOTBOT_STORE.',
            { location },
          );
        }
      }
      await next.query(`LISTEN ${CHANGE_CHANNEL}`);
    } catch (error) {
      await next.end().catch(() => undefined);
      throw error;
    }
    next.on('notification', (message) => {
      if (message.channel !== CHANGE_CHANNEL || message.payload === undefined) return;
      try {
        const change = JSON.parse(message.payload) as { t: string; k: string; o: string | null };
        if (change.o !== options.origin) options.onChange(change.t, change.k);
      } catch (error) {
        logger.warn({ err: error, store: location }, 'ignored an unreadable store change notification');
      }
    });
    next.on('end', () => {
      if (closed || client !== next) return;
      client = undefined;
      scheduleReconnect();
    });
    return next;
  };

  const scheduleReconnect = (): void => {
    if (closed || retry !== undefined) return;
    retry = setTimeout(() => {
      retry = undefined;
      connect().then(
        (next) => {
          if (closed) {
            void next.end().catch(() => undefined);
            return;
          }
          client = next;
          logger.info({ store: location }, 'store change listener reconnected');
          options.onReconnect();
        },
        (error: unknown) => {
          logger.warn({ err: error, store: location }, 'store change listener could not reconnect; retrying');
          scheduleReconnect();
        },
      );
    }, options.reconnectDelayMs ?? 1000);
    retry.unref();
  };

  client = await connect();
  return {
    async close() {
      closed = true;
      if (retry !== undefined) clearTimeout(retry);
      const current = client;
      client = undefined;
      // Ending the session also releases the advisory lock.
      await current?.end().catch(() => undefined);
    },
  };
}
