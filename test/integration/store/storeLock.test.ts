import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../../src/core/index.js';
import { openStore, StoreLockedError } from '../../../src/store/index.js';
import { recordingLogger, withTempDir } from '../../support/storeTestKit.js';

const lockOf = (pid: number, host = hostname()) =>
  JSON.stringify({ pid, hostname: host, startedAt: '2026-03-01T09:00:00.000Z' });

/** A live process that does nothing until killed. */
async function idleChild(): Promise<ChildProcess & { pid: number }> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  await once(child, 'spawn');
  return child as ChildProcess & { pid: number };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

describe('the store lock', () => {
  it('refuses a store whose lock a live process holds, naming the pid, and leaves the lock alone', async () => {
    const child = await idleChild();
    try {
      await withTempDir(async (dir) => {
        const path = join(dir, 'pivotbot.json');
        await writeFile(`${path}.lock`, lockOf(child.pid));
        const error = await openStore({ path, logger: silentLogger() }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(StoreLockedError);
        expect((error as StoreLockedError).code).toBe('STORE_LOCKED');
        expect((error as Error).message).toContain(`held by pid ${child.pid} on ${hostname()}`);
        expect((error as Error).message).toContain('still running');
        expect(await readFile(`${path}.lock`, 'utf8')).toBe(lockOf(child.pid));
      });
    } finally {
      await stop(child);
    }
  });

  it('takes over a lock left by a process that has died, and says so', async () => {
    const child = await idleChild();
    await stop(child);
    await withTempDir(async (dir) => {
      const path = join(dir, 'pivotbot.json');
      await writeFile(`${path}.lock`, lockOf(child.pid));
      const { logger, lines } = recordingLogger();
      const store = await openStore({ path, logger });
      const lock = JSON.parse(await readFile(`${path}.lock`, 'utf8'));
      expect(lock).toMatchObject({ pid: process.pid, hostname: hostname() });
      expect(lines.some((l) => l.level === 40 && l.msg.includes(`left by pid ${child.pid}`))).toBe(true);
      await store.close();
    });
  });

  it('takes over a lock carrying its own pid from an earlier life (pid 1 in a restarted container)', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'pivotbot.json');
      await writeFile(`${path}.lock`, lockOf(process.pid));
      const store = await openStore({ path, logger: silentLogger() });
      await store.close();
    });
  });

  it('takes over an unreadable lock file with a warning', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'pivotbot.json');
      await writeFile(`${path}.lock`, '{"pid":');
      const { logger, lines } = recordingLogger();
      const store = await openStore({ path, logger });
      expect(lines.some((l) => l.level === 40 && l.msg.includes('unreadable store lock'))).toBe(true);
      await store.close();
    });
  });

  it('refuses a second open of the same file in the same process until the first is closed', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'pivotbot.json');
      const first = await openStore({ path, logger: silentLogger() });
      await expect(openStore({ path, logger: silentLogger() })).rejects.toThrow(/still running/);
      await first.close();
      const second = await openStore({ path, logger: silentLogger() });
      await second.close();
    });
  });

  it('refuses a lock from another host, which it cannot check, and says how to clear it', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'pivotbot.json');
      await writeFile(`${path}.lock`, lockOf(12345, 'elsewhere'));
      await expect(openStore({ path, logger: silentLogger() })).rejects.toThrow(
        /held by pid 12345 on elsewhere .*delete .*pivotbot\.json\.lock/s,
      );
    });
  });

  it('leaves a lock that is no longer its own in place on close', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'pivotbot.json');
      const { logger, lines } = recordingLogger();
      const store = await openStore({ path, logger });
      await writeFile(`${path}.lock`, lockOf(4242));
      await store.close();
      expect(await readFile(`${path}.lock`, 'utf8')).toBe(lockOf(4242));
      expect(lines.some((l) => l.msg.includes('no longer ours'))).toBe(true);
    });
  });
});
