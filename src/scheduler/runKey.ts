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

/**
 * The identity of a digest's explanation step: the "because" lines added to the posted digest of
 * one slot and the ranking in its thread. Claimed apart from the digest's key, so that the step is
 * retried (and recorded) on its own.
 *
 * @example explainRunKey('daily-kpi', 'C0123', new Date('2026-11-23T12:00:00Z'))
 * // 'digest-explain:daily-kpi:C0123:2026-11-23T12:00:00.000Z'
 */
export function explainRunKey(report: string, channel: string, slot: Date): string {
  return `digest-explain:${report}:${channel}:${slot.toISOString()}`;
}

/** The parts of a digest run key, or `undefined` for any other key. */
export function parseRunKey(key: string): { report: string; channel: string; slot: Date } | undefined {
  const match = /^digest:(.+):([^:]+):(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)$/.exec(key);
  if (!match) return undefined;
  return { report: match[1] ?? '', channel: match[2] ?? '', slot: new Date(match[3] ?? '') };
}

/**
 * The identity of one evaluation of an alert rule: one report, one rule, one scheduled instant.
 *
 * @example alertRunKey('daily-kpi', 'cpi-too-high', new Date('2026-11-23T12:00:00Z'))
 * // 'alert:daily-kpi:cpi-too-high:2026-11-23T12:00:00.000Z'
 */
export function alertRunKey(report: string, rule: string, slot: Date): string {
  return `alert:${report}:${rule}:${slot.toISOString()}`;
}

/** The parts of an alert run key, or `undefined` for any other key. */
export function parseAlertRunKey(key: string): { report: string; rule: string; slot: Date } | undefined {
  const match = /^alert:(.+):([^:]+):(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)$/.exec(key);
  if (!match) return undefined;
  return { report: match[1] ?? '', rule: match[2] ?? '', slot: new Date(match[3] ?? '') };
}

/** The run key of a schedule's slot, digest or alert. */
export function specRunKey(
  spec: { kind?: 'digest' | 'alert'; report: string; channel: string; rule?: string },
  slot: Date,
): string {
  return spec.kind === 'alert'
    ? alertRunKey(spec.report, spec.rule ?? '', slot)
    : runKey(spec.report, spec.channel, slot);
}

/** The prefix every run key of this schedule starts with (its slot follows). */
export function specRunKeyPrefix(spec: {
  kind?: 'digest' | 'alert';
  report: string;
  channel: string;
  rule?: string;
}): string {
  return spec.kind === 'alert' ? `alert:${spec.report}:${spec.rule ?? ''}:` : `digest:${spec.report}:${spec.channel}:`;
}
