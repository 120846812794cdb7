/**
 * Cron expressions as the schedules of report definitions and subscriptions write them: five
 * fields (minute hour day-of-month month day-of-week), or six with a leading seconds field. The
 * syntax is Vixie cron's: `*`, numbers, ranges `1-5`, steps `*\/15` and `8-18/2`, lists, month
 * and weekday names (`jan`, `mon-fri`), 0 or 7 for Sunday. Kept here, beside the schema that
 * validates definitions, so a bad field is reported at its line; the scheduler computes fire
 * times from the parsed form.
 */
import { ErrorCode, UserInputError } from '../core/index.js';

export interface CronExpression {
  /** The expression as written, trimmed, with single spaces. */
  source: string;
  seconds: readonly number[];
  minutes: readonly number[];
  hours: readonly number[];
  daysOfMonth: ReadonlySet<number>;
  months: ReadonlySet<number>;
  /** 0 = Sunday … 6 = Saturday (7 is read as 0). */
  daysOfWeek: ReadonlySet<number>;
  /**
   * Vixie cron: when both day fields are restricted, a day matches if EITHER matches
   * (`0 9 1 * mon` = the 1st and every Monday); when one starts with `*`, only the other counts.
   */
  dayOfMonthStar: boolean;
  dayOfWeekStar: boolean;
  /** The hour field starts with `*`: the schedule runs on real time through a repeated (fall-back) hour. */
  hourStar: boolean;
}

/** A cron expression that cannot be read; the message names the field and what it allows. */
export class CronSyntaxError extends UserInputError {
  constructor(message: string) {
    super(ErrorCode.CronInvalid, message);
  }
}

const MONTH_NAMES = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
/** Longest day-of-month of each month (February 29 happens). */
const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

interface FieldRule {
  name: string;
  min: number;
  max: number;
  names?: readonly string[];
  /** Where the first name sits (months are 1-based, days 0-based). */
  nameBase?: number;
}

const SECOND: FieldRule = { name: 'second', min: 0, max: 59 };
const MINUTE: FieldRule = { name: 'minute', min: 0, max: 59 };
const HOUR: FieldRule = { name: 'hour', min: 0, max: 23 };
const DAY_OF_MONTH: FieldRule = { name: 'day-of-month', min: 1, max: 31 };
const MONTH: FieldRule = { name: 'month', min: 1, max: 12, names: MONTH_NAMES, nameBase: 1 };
const DAY_OF_WEEK: FieldRule = { name: 'day-of-week', min: 0, max: 7, names: DAY_NAMES, nameBase: 0 };

const USAGE =
  'a cron expression has 5 fields (minute hour day-of-month month day-of-week), or 6 with a leading seconds field, e.g. "0 9 * * 1-5"';

/**
 * Parses a cron expression, or throws `CronSyntaxError` naming the bad field. An expression that
 * can never fire (`0 0 31 2 *`) is an error too.
 *
 * @example parseCron('0 9 * * 1-5').hours // [9]
 */
export function parseCron(text: string): CronExpression {
  const fields = text.trim().split(/\s+/);
  if (text.trim() === '' || (fields.length !== 5 && fields.length !== 6)) {
    throw new CronSyntaxError(`"${text.trim()}": ${USAGE}.`);
  }
  const [second, minute, hour, dayOfMonth, month, dayOfWeek] = fields.length === 6 ? fields : ['0', ...fields];
  const field = (value: string | undefined, rule: FieldRule) => parseField(value ?? '', rule, text.trim());
  const daysOfWeek = new Set(field(dayOfWeek, DAY_OF_WEEK).map((d) => d % 7));
  const expression: CronExpression = {
    source: fields.join(' '),
    seconds: field(second, SECOND),
    minutes: field(minute, MINUTE),
    hours: field(hour, HOUR),
    daysOfMonth: new Set(field(dayOfMonth, DAY_OF_MONTH)),
    months: new Set(field(month, MONTH)),
    daysOfWeek,
    dayOfMonthStar: (dayOfMonth ?? '').startsWith('*'),
    dayOfWeekStar: (dayOfWeek ?? '').startsWith('*'),
    hourStar: (hour ?? '').startsWith('*'),
  };
  // Only day-of-month can make an expression impossible, and only when it alone decides the day.
  if (expression.dayOfWeekStar || expression.dayOfMonthStar) {
    const possible = [...expression.months].some((m) =>
      [...expression.daysOfMonth].some((d) => d <= (MONTH_DAYS[m - 1] ?? 0)),
    );
    if (!possible) {
      throw new CronSyntaxError(
        `"${expression.source}" never fires: no month it names has day ${[...expression.daysOfMonth].join(', ')}.`,
      );
    }
  }
  return expression;
}

function parseField(value: string, rule: FieldRule, expression: string): number[] {
  const bad = (why: string) =>
    new CronSyntaxError(`"${expression}": the ${rule.name} field "${value}" ${why} (${USAGE}).`);
  const out = new Set<number>();
  for (const part of value.split(',')) {
    const match = /^(\*|[0-9a-z]+(?:-[0-9a-z]+)?)(?:\/(\d+))?$/i.exec(part);
    if (!match) throw bad('is not a number, range, step or list');
    const [, body = '', stepText] = match;
    const step = stepText === undefined ? 1 : Number(stepText);
    if (step < 1) throw bad('has a step of 0');
    let from: number;
    let to: number;
    if (body === '*') {
      from = rule.min;
      to = rule.name === 'day-of-week' ? 6 : rule.max;
    } else {
      const [a = '', b] = body.split('-');
      from = atom(a, rule, bad);
      // `5/15` means from 5 to the end, as in Vixie cron.
      to = b === undefined ? (stepText === undefined ? from : rule.max) : atom(b, rule, bad);
      if (to < from) throw bad(`runs backwards (${from} > ${to})`);
    }
    for (let v = from; v <= to; v += step) out.add(v);
  }
  return [...out].sort((x, y) => x - y);
}

function atom(text: string, rule: FieldRule, bad: (why: string) => Error): number {
  const lower = text.toLowerCase();
  const named = rule.names?.indexOf(lower) ?? -1;
  if (named >= 0) return named + (rule.nameBase ?? 0);
  if (!/^\d+$/.test(text)) {
    const allowed = rule.names ? ` or a name (${rule.names.join(', ')})` : '';
    throw bad(`is not a number${allowed}`);
  }
  const n = Number(text);
  if (n < rule.min || n > rule.max) throw bad(`is out of range ${rule.min}-${rule.max}`);
  return n;
}

const DAY_NUMBERS: Record<string, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };

/**
 * The cron expression of an `at` time with `days` (default daily).
 *
 * @example atToCron('09:30', 'weekdays') // '30 9 * * 1-5'
 */
export function atToCron(at: string, days: 'daily' | 'weekdays' | 'weekends' | readonly string[] = 'daily'): string {
  const match = /^(\d{1,2}):(\d{2})$/.exec(at.trim());
  const hour = Number(match?.[1]);
  const minute = Number(match?.[2]);
  if (!match || hour > 23 || minute > 59) throw new CronSyntaxError(`"${at}" is not a 24-hour time like 09:00.`);
  let dow: string;
  if (days === 'daily') dow = '*';
  else if (days === 'weekdays') dow = '1-5';
  else if (days === 'weekends') dow = '0,6';
  else {
    const numbers = days.map((d) => DAY_NUMBERS[d.toLowerCase()]);
    if (numbers.length === 0 || numbers.some((n) => n === undefined)) {
      throw new CronSyntaxError(
        `days must be daily, weekdays, weekends or a list of mon … sun; got ${days.join(', ')}.`,
      );
    }
    dow = [...new Set(numbers)].sort().join(',');
  }
  return `${minute} ${hour} * * ${dow}`;
}
