/** The zod fields of a timing, shared by a report's `schedule` and an alert rule's `check`. */
import { z } from 'zod';
import { CronSyntaxError, parseCron, timeZoneProblem } from '../time/index.js';

/** A cron expression (5 fields, or 6 with seconds), checked field by field by `parseCron`. */
export const cronText = z.string().superRefine((text, ctx) => {
  try {
    parseCron(text);
  } catch (error) {
    if (!(error instanceof CronSyntaxError)) throw error;
    ctx.addIssue({ code: 'custom', message: error.message });
  }
});

/** An IANA time zone, with "Did you mean" for near misses. */
export const timeZoneText = z
  .string()
  .min(1)
  .superRefine((zone, ctx) => {
    const problem = timeZoneProblem(zone);
    if (problem) ctx.addIssue({ code: 'custom', message: problem.message });
  });
