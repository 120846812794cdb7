/** At start-up: the alert notices still owed (a crash or a Slack failure after an evaluation was stored), told now. */
import { owesThreads } from '../alerts/index.js';
import { toError } from '../core/index.js';
import type { LoadedReport } from '../reports/index.js';
import type { AlertIncident } from '../store/index.js';
import { deliverOwed } from './alertReplies.js';
import { type RuleThreads, ruleRange } from './alertThreads.js';
import type { DigestDeps } from './deliverDigest.js';
import { oneAtATime } from './oneAtATime.js';

/**
 * At start-up: every incident that still owes its threads something (a crash or a Slack failure
 * after the evaluation was stored) is told now, instead of at its rule's next evaluation. Thread
 * checks guard every reply (nothing is fresh). Returns how many incidents were told; one that
 * fails is logged and left owed for the next evaluation.
 */
export async function deliverOwedAlerts(deps: DigestDeps): Promise<number> {
  const owing = owingIncidents(deps);
  if (owing.length === 0) return 0;
  const loaded = await deps.loadReports();
  let told = 0;
  for (const [key, incidents] of groupByRule(owing)) {
    const [reportId, ruleId] = key.split('/') as [string, string];
    const report = loaded.reports.find((r: LoadedReport) => r.id === reportId);
    const rule = report?.definition.alerts.find((r) => r.id === ruleId);
    const channels = report?.definition.deliver?.channels ?? [];
    if (!report || !rule || channels.length === 0) {
      deps.logger.warn({ report: reportId, rule: ruleId }, 'alert notices owed by a rule that is gone; left owed');
      continue;
    }
    const now = deps.clock();
    const threads: RuleThreads = {
      report,
      rule,
      channels,
      ...ruleRange(report, rule, now, deps.defaultTimeZone),
      now,
      signal: deps.signal,
    };
    await oneAtATime(deps.store, key, async () => {
      for (const incident of incidents) {
        try {
          await deliverOwed(threads, incident, deps, { fresh: new Set() });
          told++;
        } catch (error) {
          deps.logger.warn(
            { incident: incident.id, err: toError(error) },
            'owed alert notice not delivered; the next evaluation retries',
          );
        }
      }
    });
  }
  return told;
}

function owingIncidents(deps: DigestDeps): AlertIncident[] {
  const seen = new Set<string>();
  const out: AlertIncident[] = [];
  for (const evaluation of deps.store.incidents.listEvaluations()) {
    for (const incident of deps.store.incidents.listByReportRule(evaluation.reportId, evaluation.ruleId)) {
      if (seen.has(incident.id) || !owesThreads(incident)) continue;
      seen.add(incident.id);
      out.push(incident);
    }
  }
  return out;
}

function groupByRule(incidents: readonly AlertIncident[]): Map<string, AlertIncident[]> {
  const out = new Map<string, AlertIncident[]>();
  for (const incident of incidents) {
    const key = `${incident.reportId ?? ''}/${incident.ruleId}`;
    out.set(key, [...(out.get(key) ?? []), incident]);
  }
  return out;
}
