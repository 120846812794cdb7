import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { silentLogger } from '../../../src/core/index.js';
import {
  emptyStoreData,
  openStore,
  STORE_VERSION,
  type Store,
  StoreCorruptError,
  StoreTooNewError,
} from '../../../src/store/index.js';
import { listDir, recordingLogger, withTempDir } from '../../support/storeTestKit.js';

const sub = { report: 'daily', channel: 'C1', createdBy: 'U1' };

/** Opens, writes two subscriptions (so the backup holds the first), closes. */
async function storeWithHistory(path: string): Promise<void> {
  const store = await openStore({ path, logger: silentLogger() });
  await store.subscriptions.add(sub);
  await store.subscriptions.add({ ...sub, channel: 'C2' });
  await store.close();
}

async function withStore<T>(store: Store, fn: (store: Store) => Promise<T>): Promise<T> {
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

describe('openStore on a real file', () => {
  it('starts empty on first start and writes a versioned file at once', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'nested', 'pivotbot.json');
      const store = await openStore({ path, logger: silentLogger() });
      expect(await listDir(join(dir, 'nested'))).toEqual(['pivotbot.json', 'pivotbot.json.lock']);
      expect(JSON.parse(await readFile(path, 'utf8'))).toEqual(emptyStoreData());
      await store.close();
      expect(await listDir(join(dir, 'nested'))).toEqual(['pivotbot.json']);
    });
  });

  it('keeps everything across a restart, and keeps the previous state as the backup', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'pivotbot.json');
      await storeWithHistory(path);
      const reopened = await openStore({ path, logger: silentLogger() });
      await withStore(reopened, async (store) => {
        expect(store.subscriptions.list().map((s) => s.channel)).toEqual(['C1', 'C2']);
      });
      const backup = JSON.parse(await readFile(`${path}.bak`, 'utf8'));
      expect(backup.subscriptions.map((s: { channel: string }) => s.channel)).toEqual(['C1']);
    });
  });

  it('persists every change of a burst of concurrent writes once their promises resolve', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'pivotbot.json');
      const store = await openStore({ path, logger: silentLogger() });
      const channels = Array.from({ length: 50 }, (_, i) => `C${i}`);
      await Promise.all(channels.map((channel) => store.subscriptions.add({ ...sub, channel })));
      const onDisk = JSON.parse(await readFile(path, 'utf8'));
      expect(onDisk.subscriptions.map((s: { channel: string }) => s.channel)).toEqual(channels);
      await store.close();
    });
  });

  it.each([
    ['corrupt', (text: string) => text.replace('"version"', '"versi')],
    ['truncated', (text: string) => text.slice(0, Math.floor(text.length / 2))],
    ['empty', () => ''],
    ['invalid', (text: string) => text.replace('"C2"', '""')],
  ])('moves a %s file aside, restores the backup and logs it loudly', async (_kind, damage) => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'pivotbot.json');
      await storeWithHistory(path);
      const original = await readFile(path, 'utf8');
      await writeFile(path, damage(original));
      const { logger, lines } = recordingLogger();
      const store = await openStore({ path, logger, clock: () => new Date('2026-03-01T09:00:00.000Z') });
      await withStore(store, async (s) => {
        expect(s.subscriptions.list().map((x) => x.channel)).toEqual(['C1']);
      });
      const aside = `${path}.corrupt-2026-03-01T09-00-00-000Z`;
      expect(await readFile(aside, 'utf8')).toBe(damage(original));
      expect(JSON.parse(await readFile(path, 'utf8')).subscriptions).toHaveLength(1);
      const loud = lines.find((l) => l.level >= 50 && l.msg.startsWith('STORE CORRUPT'));
      expect(loud).toMatchObject({ movedTo: aside, restoredFrom: `${path}.bak` });
      expect(loud?.msg).toContain('is not a valid pivotbot store');
    });
  });

  it('restores the backup when the file itself has gone missing', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'pivotbot.json');
      await storeWithHistory(path);
      await rm(path);
      const { logger, lines } = recordingLogger();
      await withStore(await openStore({ path, logger }), async (store) => {
        expect(store.subscriptions.list()).toHaveLength(1);
      });
      expect(lines.some((l) => l.level >= 50 && l.msg.startsWith('STORE FILE MISSING'))).toBe(true);
    });
  });

  it('refuses to start when neither the file nor a backup is usable, leaving the file alone', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'pivotbot.json');
      await writeFile(path, '{"version":1,"jobs":[');
      const error = await openStore({ path, logger: silentLogger() }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreCorruptError);
      expect((error as StoreCorruptError).code).toBe('STORE_CORRUPT');
      expect((error as Error).message).toMatch(/not valid JSON.*backup .*pivotbot\.json\.bak does not exist.*refuses/s);
      expect(await readFile(path, 'utf8')).toBe('{"version":1,"jobs":[');
      expect(await listDir(dir)).toEqual(['pivotbot.json']); // not moved aside, lock released

      await writeFile(`${path}.bak`, 'garbage');
      await expect(openStore({ path, logger: silentLogger() })).rejects.toThrow(/backup .* is unusable too/);
      expect(await listDir(dir)).toEqual(['pivotbot.json', 'pivotbot.json.bak']);
    });
  });

  it('refuses a missing file whose backup is damaged rather than starting empty', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'pivotbot.json');
      await writeFile(`${path}.bak`, '{');
      await expect(openStore({ path, logger: silentLogger() })).rejects.toBeInstanceOf(StoreCorruptError);
    });
  });

  it('treats an unreadable file (here: a directory in its place) like a corrupt one', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'pivotbot.json');
      await mkdir(path);
      await expect(openStore({ path, logger: silentLogger() })).rejects.toThrow(/cannot be read.*EISDIR/s);
    });
  });

  it('refuses a file written by a newer version without touching it or its backup', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'pivotbot.json');
      const text = JSON.stringify({ ...emptyStoreData(), version: STORE_VERSION + 1, futureField: true });
      await writeFile(path, text);
      await writeFile(`${path}.bak`, JSON.stringify(emptyStoreData()));
      const error = await openStore({ path, logger: silentLogger() }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreTooNewError);
      expect((error as StoreTooNewError).code).toBe('STORE_TOO_NEW');
      expect((error as Error).message).toContain('newer pivotbot');
      expect(await readFile(path, 'utf8')).toBe(text);
      expect(await listDir(dir)).toEqual(['pivotbot.json', 'pivotbot.json.bak']);
    });
  });

  it('migrates an unversioned file, keeping the original beside it', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'pivotbot.json');
      const at = '2026-03-01T09:00:00.000Z';
      const v0 = JSON.stringify({ lastFires: { daily: at } });
      await writeFile(path, v0);
      const { logger, lines } = recordingLogger();
      await withStore(await openStore({ path, logger }), async (store) => {
        expect(store.schedules.getLastFire('daily')).toBe(at);
      });
      expect(JSON.parse(await readFile(path, 'utf8')).version).toBe(STORE_VERSION);
      expect(await readFile(`${path}.v0.bak`, 'utf8')).toBe(v0);
      expect(lines.some((l) => l.msg.includes('migrated from version 0'))).toBe(true);
    });
  });

  it('cleans up temporary files an interrupted write left behind', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'pivotbot.json');
      await storeWithHistory(path);
      await writeFile(`${path}.tmp`, '{"half":');
      await writeFile(`${path}.bak.tmp`, '');
      await withStore(await openStore({ path, logger: silentLogger() }), async (store) => {
        expect(store.subscriptions.list()).toHaveLength(2);
      });
      expect(await listDir(dir)).toEqual(['pivotbot.json', 'pivotbot.json.bak']);
    });
  });
});
