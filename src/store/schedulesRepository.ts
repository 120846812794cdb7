import type { SchedulesRepository } from './Store.js';
import { checkRecord, type StoreContext } from './storeContext.js';
import { type ScheduleFire, scheduleFireSchema } from './storeSchema.js';

/** Scheduler bookkeeping: the last time each schedule fired. */
export function createSchedulesRepository(ctx: StoreContext): SchedulesRepository {
  const find = (scheduleId: string): ScheduleFire | undefined =>
    ctx.data().schedules.find((s) => s.scheduleId === scheduleId);

  return {
    getLastFire: (scheduleId: string) => find(scheduleId)?.lastFireAt,

    setLastFire(scheduleId: string, at: string) {
      return ctx.mutate((data) => {
        const record = checkRecord(
          scheduleFireSchema,
          { scheduleId, lastFireAt: at, updatedAt: ctx.now() },
          'schedule',
        );
        const index = data.schedules.findIndex((s) => s.scheduleId === scheduleId);
        if (index === -1) data.schedules.push(record);
        else data.schedules[index] = record;
        return record;
      });
    },

    list: () => [...ctx.data().schedules],

    async remove(scheduleId: string) {
      ctx.assertOpen();
      if (find(scheduleId) === undefined) return false;
      return ctx.mutate((data) => {
        data.schedules = data.schedules.filter((s) => s.scheduleId !== scheduleId);
        return true;
      });
    },
  };
}
