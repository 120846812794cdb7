import type { IncidentPatch, IncidentsRepository, NewIncident } from './Store.js';
import { StoreNotFoundError } from './StoreError.js';
import { checkRecord, dropOldest, type StoreContext } from './storeContext.js';
import { type AlertIncident, alertIncidentSchema } from './storeSchema.js';

/**
 * Alert incidents: at most one open per (rule, entity); resolved ones are bounded per rule
 * (`limits.resolvedIncidentsPerRule`) and observations per incident (`limits.valuesPerIncident`).
 */
export function createIncidentsRepository(ctx: StoreContext): IncidentsRepository {
  const incidents = (): readonly AlertIncident[] => ctx.data().incidents;
  const findOpen = (ruleId: string, entityKey: string): AlertIncident | undefined =>
    incidents().find((i) => i.state === 'open' && i.ruleId === ruleId && i.entityKey === entityKey);

  const prune = (ruleId: string): void => {
    const data = ctx.data();
    const resolved = (i: AlertIncident): boolean => i.ruleId === ruleId && i.state === 'resolved';
    const excess = data.incidents.filter(resolved).length - ctx.limits.resolvedIncidentsPerRule;
    if (excess > 0) data.incidents = dropOldest(data.incidents, excess, resolved);
  };

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

    get: (id: string) => incidents().find((i) => i.id === id),
    findOpen,
    listOpen: () => incidents().filter((i) => i.state === 'open'),
    listByRule: (ruleId: string) =>
      incidents()
        .filter((i) => i.ruleId === ruleId)
        .reverse(),
  };
}
