import { mkdir, readdir, readFile, rename, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { silentLogger } from '../../../src/core/index.js';
import { decodeStoreText, openStore, StoreWriteFailedError } from '../../../src/store/index.js';
import { faultyOpen, recordingLogger, systemError, withTempDir } from '../../support/storeTestKit.js';

/*
 * Tests run as root, for whom chmod does not stop writes. A full disk or a read-only file
 * system is simulated two ways: for real, by putting a directory where the store's temporary
 * file must go (the write fails with EISDIR), and by injecting ENOSPC / EROFS into the
 * file-system calls the store makes (the `fs` option of openStore).
 */

const sub = (channel: string) => ({ report: 'daily', channel, createdBy: 'U1' });

async function channelsOnDisk(path: string): Promise<string[]> {
  const { data } = decodeStoreText(await readFile(path, 'utf8'), path);
  return data.subscriptions.map((s) => s.channel);
}

describe('when the disk refuses a write', () => {
  it('fails with a typed error, keeps the change in memory and the old file on disk, and persists on the next write', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'pivotbot.json');
      const store = await openStore({ path, logger: silentLogger() });
      await store.subscriptions.add(sub('C1'));

      await mkdir(`${path}.tmp`); // the temporary file cannot be created: EISDIR
      const error = await store.subscriptions.add(sub('C2')).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreWriteFailedError);
      expect(error).toMatchObject({ code: 'STORE_WRITE_FAILED', retryable: true, details: { errno: 'EISDIR' } });
      expect((error as Error).message).toContain(path);
      expect(store.subscriptions.list().map((s) => s.channel)).toEqual(['C1', 'C2']);
      expect(await channelsOnDisk(path)).toEqual(['C1']);

      await rmdir(`${path}.tmp`);
      await store.subscriptions.add(sub('C3'));
      expect(await channelsOnDisk(path)).toEqual(['C1', 'C2', 'C3']);
      await store.close();
      expect(await readdir(dir)).toEqual(expect.arrayContaining(['pivotbot.json', 'pivotbot.json.bak']));
    });
  });

  it.each([
    ['disk full (ENOSPC) on the temporary file', 'ENOSPC', 'open'],
    ['read-only file system (EROFS) on the rename', 'EROFS', 'rename'],
  ])('survives %s; flush() persists once the disk is back', async (_name, code, call) => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'pivotbot.json');
      let broken = false;
      const store = await openStore({
        path,
        logger: silentLogger(),
        fs:
          call === 'open'
            ? {
                open: faultyOpen(
                  code,
                  (p) => p.endsWith('.tmp'),
                  () => broken,
                ),
              }
            : {
                rename: async (from, to) => {
                  if (broken) throw systemError(code, 'rename', from);
                  await rename(from, to);
                },
              },
      });
      await store.schedules.setLastFire('daily', '2026-03-01T09:00:00.000Z');
      broken = true;
      await expect(store.schedules.setLastFire('daily', '2026-03-02T09:00:00.000Z')).rejects.toMatchObject({
        code: 'STORE_WRITE_FAILED',
        details: { errno: code },
      });
      expect(store.schedules.getLastFire('daily')).toBe('2026-03-02T09:00:00.000Z');
      await expect(store.flush()).rejects.toBeInstanceOf(StoreWriteFailedError);
      const onDisk = JSON.parse(await readFile(path, 'utf8'));
      expect(onDisk.schedules[0].lastFireAt).toBe('2026-03-01T09:00:00.000Z');
      expect(await readdir(dir)).not.toContain('pivotbot.json.tmp');

      broken = false;
      await store.flush();
      expect(JSON.parse(await readFile(path, 'utf8')).schedules[0].lastFireAt).toBe('2026-03-02T09:00:00.000Z');
      await store.close();
    });
  });

  it('refuses to start in a read-only directory, with a typed error naming the lock file', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'pivotbot.json');
      const error = await openStore({
        path,
        logger: silentLogger(),
        fs: {
          open: faultyOpen(
            'EROFS',
            () => true,
            () => true,
          ),
        },
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreWriteFailedError);
      expect((error as Error).message).toMatch(/pivotbot\.json\.lock failed \(EROFS\)/);
      expect(await readdir(dir)).toEqual([]);
    });
  });

  it('rejects close() when the last changes cannot be written, logging it, yet releases the lock', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'pivotbot.json');
      let broken = false;
      const { logger, lines } = recordingLogger();
      const store = await openStore({
        path,
        logger,
        fs: {
          open: faultyOpen(
            'ENOSPC',
            (p) => p.endsWith('.tmp'),
            () => broken,
          ),
        },
      });
      broken = true;
      await expect(store.subscriptions.add(sub('C1'))).rejects.toBeInstanceOf(StoreWriteFailedError);
      await expect(store.close()).rejects.toBeInstanceOf(StoreWriteFailedError);
      expect(lines.some((l) => l.level === 50 && l.msg.includes('could not be written'))).toBe(true);
      expect(await readdir(dir)).toEqual(['pivotbot.json']);
    });
  });

  it('works where hard links are not supported, copying the backup and creating the lock in place', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'pivotbot.json');
      const noLinks = { link: async (from: string) => Promise.reject(systemError('EPERM', 'link', from)) };
      const store = await openStore({ path, logger: silentLogger(), fs: noLinks });
      expect(JSON.parse(await readFile(`${path}.lock`, 'utf8')).pid).toBe(process.pid);
      await store.subscriptions.add(sub('C1'));
      await store.subscriptions.add(sub('C2'));
      await store.close();
      expect(await channelsOnDisk(path)).toEqual(['C1', 'C2']);
      expect(await channelsOnDisk(`${path}.bak`)).toEqual(['C1']);
      expect((await readdir(dir)).sort()).toEqual(['pivotbot.json', 'pivotbot.json.bak']);
    });
  });
});
