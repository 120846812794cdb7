/**
 * The identity of a digest slot, claimed in the store before anything is sent: one report, one
 * channel, one scheduled instant. A report delivered and subscribed to the same channel at the
 * same instant shares the key, so the channel gets it once.
 *
 * @example runKey('daily-kpi', 'C0123', new Date('2026-11-23T12:00:00Z'))
 * // 'digest:daily-kpi:C0123:2026-11-23T12:00:00.000Z'
 */
export function runKey(report: string, channel: string, slot: Date): string {
  return `digest:${report}:${channel}:${slot.toISOString()}`;
}

/** The parts of a digest run key, or `undefined` for any other key. */
export function parseRunKey(key: string): { report: string; channel: string; slot: Date } | undefined {
  const match = /^digest:(.+):([^:]+):(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)$/.exec(key);
  if (!match) return undefined;
  return { report: match[1] ?? '', channel: match[2] ?? '', slot: new Date(match[3] ?? '') };
}
