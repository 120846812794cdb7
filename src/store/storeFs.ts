import * as fsp from 'node:fs/promises';

/** The open file the store writes through: what it needs of Node's `FileHandle`. */
export interface StoreFileHandle {
  writeFile(data: string, encoding: 'utf8'): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The file-system calls the store makes. Defaults to `node:fs/promises`; tests override single
 * calls to simulate a full disk or a read-only file system, which root (who runs the tests)
 * cannot get from `chmod`.
 */
export interface StoreFs {
  open(path: string, flags: string): Promise<StoreFileHandle>;
  readFile(path: string, encoding: 'utf8'): Promise<string>;
  rename(from: string, to: string): Promise<void>;
  link(existing: string, newPath: string): Promise<void>;
  unlink(path: string): Promise<void>;
  copyFile(from: string, to: string): Promise<void>;
  mkdir(path: string, options: { recursive: true }): Promise<unknown>;
}

export const nodeStoreFs: StoreFs = {
  open: (path, flags) => fsp.open(path, flags),
  readFile: (path, encoding) => fsp.readFile(path, encoding),
  rename: (from, to) => fsp.rename(from, to),
  link: (existing, newPath) => fsp.link(existing, newPath),
  unlink: (path) => fsp.unlink(path),
  copyFile: (from, to) => fsp.copyFile(from, to),
  mkdir: (path, options) => fsp.mkdir(path, options),
};

/** Node's calls, with any of them replaced. */
export function storeFs(overrides: Partial<StoreFs> = {}): StoreFs {
  return { ...nodeStoreFs, ...overrides };
}
