// The only file that imports lowdb: the store's data lives in a `Low` instance whose adapter
// is either lowdb's `Memory` or `DurableJsonFile` below (lowdb's own JSONFile/steno writer
// renames a temp file but never fsyncs, so a power cut can leave an empty file).
import { type Adapter, Low, Memory } from 'lowdb';
import { decodeStoreText } from './decodeStoreText.js';
import { errnoCode, StoreWriteFailedError } from './StoreError.js';
import type { StoreFs } from './storeFs.js';
import type { StoreData } from './storeSchema.js';
import { writeFileDurably } from './writeFileDurably.js';

/** The in-memory document and the one way to persist it. */
export interface StoreDocument {
  readonly data: StoreData;
  /** Persists `data` as it is at the moment of the call (it is serialised synchronously). */
  write(): Promise<void>;
}

/** A document that persists nowhere: the memory store for unit tests. */
export function createMemoryDocument(data: StoreData): StoreDocument {
  return new Low<StoreData>(new Memory<StoreData>(), data);
}

/** A document persisted to `path` atomically and durably, keeping `<path>.bak`. */
export function createFileDocument(path: string, data: StoreData, fs: StoreFs): StoreDocument {
  return new Low<StoreData>(new DurableJsonFile(path, fs), data);
}

/**
 * The on-disk format: compact JSON (`jq . file` pretty-prints it) and a final newline. (Caching
 * each frozen record's JSON was tried: no faster than V8's JSON.stringify, so not kept.)
 */
export function serializeStore(data: StoreData): string {
  return `${JSON.stringify(data)}\n`;
}

class DurableJsonFile implements Adapter<StoreData> {
  readonly #path: string;
  readonly #fs: StoreFs;

  constructor(path: string, fs: StoreFs) {
    this.#path = path;
    this.#fs = fs;
  }

  async read(): Promise<StoreData | null> {
    let text: string;
    try {
      text = await this.#fs.readFile(this.#path, 'utf8');
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return null;
      throw error;
    }
    return decodeStoreText(text, this.#path).data;
  }

  write(data: StoreData): Promise<void> {
    // Serialise before the first await: the write holds exactly the changes made so far.
    const text = serializeStore(data);
    return writeFileDurably(this.#path, text, this.#fs, { backup: true }).catch((error: unknown) => {
      throw new StoreWriteFailedError(this.#path, error);
    });
  }
}
