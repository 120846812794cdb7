import type { NewSubscription, SubscriptionsRepository } from './Store.js';
import { checkRecord, type StoreContext } from './storeContext.js';
import { type Subscription, subscriptionSchema } from './storeSchema.js';

/** The fields that give a subscription its own schedule (and a saved query its text, a watch its rule and owner). */
const TIMING = ['schedule', 'at', 'cron', 'timezone', 'query', 'watch', 'owner'] as const;

function timingOf(input: NewSubscription): Partial<Pick<Subscription, (typeof TIMING)[number]>> {
  const out: Partial<Pick<Subscription, (typeof TIMING)[number]>> = {};
  for (const key of TIMING) {
    const value = input[key];
    if (value !== undefined) (out as Record<string, unknown>)[key] = value;
  }
  return out;
}

/** Channel subscriptions to reports: at most one per (report, channel). */
export function createSubscriptionsRepository(ctx: StoreContext): SubscriptionsRepository {
  const all = (): readonly Subscription[] => ctx.data().subscriptions;
  const find = (report: string, channel: string): Subscription | undefined =>
    all().find((s) => s.report === report && s.channel === channel);

  return {
    async add(input: NewSubscription) {
      ctx.assertOpen();
      const existing = find(input.report, input.channel);
      if (
        existing !== undefined &&
        TIMING.every((key) => JSON.stringify(existing[key]) === JSON.stringify(input[key]))
      ) {
        return { subscription: existing, created: false };
      }
      return ctx.mutate((data) => {
        const now = ctx.now();
        const subscription = checkRecord(
          subscriptionSchema,
          {
            id: existing?.id ?? ctx.newId('sub'),
            report: input.report,
            channel: input.channel,
            ...timingOf(input),
            createdBy: existing?.createdBy ?? input.createdBy,
            createdAt: existing?.createdAt ?? now,
            updatedAt: now,
          },
          'subscription',
        );
        if (existing === undefined) data.subscriptions.push(subscription);
        else data.subscriptions[data.subscriptions.indexOf(existing)] = subscription;
        return { subscription, created: existing === undefined };
      });
    },

    async remove(report: string, channel: string) {
      ctx.assertOpen();
      const existing = find(report, channel);
      if (existing === undefined) return undefined;
      return ctx.mutate((data) => {
        data.subscriptions = data.subscriptions.filter((s) => s !== existing);
        return existing;
      });
    },

    get: (id: string) => all().find((s) => s.id === id),
    find,
    list: () => [...all()],
    listByReport: (report: string) => all().filter((s) => s.report === report),
    listByChannel: (channel: string) => all().filter((s) => s.channel === channel),
  };
}
