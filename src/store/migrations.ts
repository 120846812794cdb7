/**
 * Forward migrations of the store file. `migrations[n]` upgrades a version-n document to
 * version n+1, so the current version is `migrations.length`. They work on untyped JSON: the
 * result is validated against the current schema afterwards.
 *
 * To change the file format: bump STORE_VERSION in storeSchema.ts, change the schema, append
 * one migration here, and add a test that loads a file of the previous version.
 */

export type RawDocument = Record<string, unknown>;
export type Migration = (doc: RawDocument) => RawDocument;

const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/**
 * 0 → 1. Version 0 is the unversioned prototype file: no `version`, collections possibly
 * missing, scheduler bookkeeping as a `lastFires` map of schedule id → ISO time, and runs
 * without an `attempt` number (the prototype never retried).
 */
const addVersionAndScheduleRecords: Migration = (doc) => {
  const lastFires = doc.lastFires !== null && typeof doc.lastFires === 'object' ? doc.lastFires : {};
  const schedules = Object.entries(lastFires).map(([scheduleId, at]) => ({
    scheduleId,
    lastFireAt: at,
    updatedAt: at,
  }));
  const runs = asArray(doc.runs).map((run) =>
    run !== null && typeof run === 'object' && !('attempt' in run) ? { ...run, attempt: 1 } : run,
  );
  return {
    version: 1,
    jobs: asArray(doc.jobs),
    subscriptions: asArray(doc.subscriptions),
    runs,
    incidents: asArray(doc.incidents),
    schedules: [...asArray(doc.schedules), ...schedules],
  };
};

export const migrations: readonly Migration[] = [addVersionAndScheduleRecords];

/** Applies every migration from `fromVersion` up to the current version. */
export function migrate(doc: RawDocument, fromVersion: number): RawDocument {
  let current = doc;
  for (let version = fromVersion; version < migrations.length; version++) {
    const step = migrations[version];
    if (step === undefined) throw new Error(`no migration from store version ${version}`);
    current = step(current);
  }
  return current;
}
