import type { EvaluationWrite, IncidentPatch, IncidentsRepository, NewIncident } from './Store.js';
import { StoreNotFoundError } from './StoreError.js';
import { checkRecord, dropOldest, type StoreContext } from './storeContext.js';
import { type AlertIncident, alertEvaluationSchema, alertIncidentSchema } from './storeSchema.js';

/**
 * Alert incidents: at most one open per (rule, entity); resolved ones are bounded per rule
 * (`limits.resolvedIncidentsPerRule`, not counting those whose outbox is not delivered yet) and
 * observations per incident (`limits.valuesPerIncident`).
 */
export function createIncidentsRepository(ctx: StoreContext): IncidentsRepository {
  const incidents = (): readonly AlertIncident[] => ctx.data().incidents;
  const findOpen = (ruleId: string, entityKey: string): AlertIncident | undefined =>
    incidents().find((i) => i.state === 'open' && i.ruleId === ruleId && i.entityKey === entityKey);

  const prune = (ruleId: string): void => {
    const data = ctx.data();
    // One that still owes its thread a reply or an edit (its outbox) is kept until it is delivered.
    const owes = (i: AlertIncident): boolean => i.owedEdit === true || (i.owedReplies?.length ?? 0) > 0;
    const resolved = (i: AlertIncident): boolean => i.ruleId === ruleId && i.state === 'resolved' && !owes(i);
    const excess = data.incidents.filter(resolved).length - ctx.limits.resolvedIncidentsPerRule;
    if (excess > 0) data.incidents = dropOldest(data.incidents, excess, resolved);
  };

  async function applyEvaluations(writes: readonly EvaluationWrite[]): Promise<void> {
    ctx.assertOpen();
    // Checked first: a bad record must leave the store untouched (mutate's contract).
    const evaluations = writes.map((w) => checkRecord(alertEvaluationSchema, w.evaluation, 'alert evaluation'));
    const byId = new Map<string, AlertIncident>();
    for (const w of writes)
      for (const i of w.incidents) byId.set(i.id, checkRecord(alertIncidentSchema, i, 'incident'));
    const checked = [...byId.values()];
    return ctx.mutate((data) => {
      const index = new Map(data.incidents.map((i, n) => [i.id, n]));
      for (const incident of checked) {
        const at = index.get(incident.id);
        if (at === undefined) data.incidents.push(incident);
        else data.incidents[at] = incident;
      }
      const byRule = new Map(data.alertEvaluations.map((e, n) => [e.ruleKey, n]));
      for (const evaluation of evaluations) {
        const at = byRule.get(evaluation.ruleKey);
        if (at === undefined) {
          byRule.set(evaluation.ruleKey, data.alertEvaluations.length);
          data.alertEvaluations.push(evaluation);
        } else data.alertEvaluations[at] = evaluation;
      }
      for (const ruleId of new Set(checked.filter((i) => i.state === 'resolved').map((i) => i.ruleId))) prune(ruleId);
    });
  }

  return {
    async open(input: NewIncident) {
      ctx.assertOpen();
      const existing = findOpen(input.ruleId, input.entityKey);
      if (existing !== undefined) return { incident: existing, opened: false };
      return ctx.mutate((data) => {
        const now = ctx.now();
        const incident = checkRecord(
          alertIncidentSchema,
          {
            id: ctx.newId('inc'),
            ruleId: input.ruleId,
            entityKey: input.entityKey,
            state: 'open',
            channel: input.channel,
            ...(input.threadTs === undefined ? {} : { threadTs: input.threadTs }),
            values: [{ at: input.at ?? now, value: input.value }],
            openedAt: now,
            updatedAt: now,
          },
          'incident',
        );
        data.incidents.push(incident);
        return { incident, opened: true };
      });
    },

    update(id: string, patch: IncidentPatch) {
      return ctx.mutate((data) => {
        const index = data.incidents.findIndex((i) => i.id === id);
        const current = data.incidents[index];
        if (current === undefined) throw new StoreNotFoundError('incident', id);
        const now = ctx.now();
        const values =
          patch.value === undefined
            ? current.values
            : [...current.values, { at: patch.at ?? now, value: patch.value }].slice(-ctx.limits.valuesPerIncident);
        const resolving = patch.state === 'resolved' && current.state !== 'resolved';
        const next = checkRecord(
          alertIncidentSchema,
          {
            ...current,
            ...(patch.threadTs === undefined ? {} : { threadTs: patch.threadTs }),
            ...(resolving ? { state: 'resolved', resolvedAt: now } : {}),
            values,
            updatedAt: now,
          },
          'incident',
        );
        data.incidents[index] = next;
        if (resolving) prune(next.ruleId);
        return next;
      });
    },

    applyEvaluation: (write: EvaluationWrite) => applyEvaluations([write]),
    applyEvaluations,

    async save(incident: AlertIncident) {
      ctx.assertOpen();
      const checked = checkRecord(alertIncidentSchema, incident, 'incident');
      return ctx.mutate((data) => {
        const at = data.incidents.findIndex((i) => i.id === checked.id);
        if (at >= 0) data.incidents[at] = checked;
        else data.incidents.push(checked);
        return checked;
      });
    },

    getEvaluation: (reportId: string, ruleId: string) =>
      ctx.data().alertEvaluations.find((e) => e.reportId === reportId && e.ruleId === ruleId),
    listEvaluations: () => ctx.data().alertEvaluations,
    listByReportRule: (reportId: string, ruleId: string) =>
      incidents()
        .filter((i) => i.ruleId === ruleId && (i.reportId === undefined || i.reportId === reportId))
        .reverse(),

    get: (id: string) => incidents().find((i) => i.id === id),
    findOpen,
    listOpen: () => incidents().filter((i) => i.state === 'open'),
    listByRule: (ruleId: string) =>
      incidents()
        .filter((i) => i.ruleId === ruleId)
        .reverse(),
  };
}
