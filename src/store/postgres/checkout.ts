import type pg from 'pg';

/**
 * A client from the pool that a lost connection cannot crash the process through. pg-pool takes
 * its own `error` listener off a client while it is checked out, so a server that ends the session
 * between two queries of a transaction (a restart, `pg_terminate_backend`) would emit an `error`
 * event nobody hears: an uncaught exception. Here the event is heard and dropped; the failure
 * reaches the caller through the query that fails, and the client is released with it.
 */
export async function checkout(pool: pg.Pool): Promise<pg.PoolClient> {
  const client = await pool.connect();
  const heard = (): void => undefined;
  client.on('error', heard);
  const release = client.release.bind(client);
  client.release = (error?: Error | boolean) => {
    // A client released with an error is destroyed; its session may still report the error after
    // the release (the server's FATAL message can arrive late), so it stays heard.
    if (!error) client.removeListener('error', heard);
    release(error);
  };
  return client;
}
