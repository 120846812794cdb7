/** The action ids and button values the Slack handlers wire: the contract between messages and handlers. */

/** Stable action ids the Slack handlers listen for (Slack wants them unique within a block). */
export const ACTION_IDS = {
  rerun: 'pivot_rerun',
  /** One per range: `pivot_range_yesterday`, …; match with `RANGE_ACTION_PATTERN`. */
  rangePrefix: 'pivot_range_',
  csv: 'pivot_csv',
  alertAck: 'alert_ack',
  alertSnooze: 'alert_snooze',
} as const;
export const RANGE_ACTION_PATTERN = /^pivot_range_/;
/** The ranges offered as buttons, with their labels. */
export const RANGE_BUTTONS = [
  ['yesterday', 'Yesterday'],
  ['last_7_days', 'Last 7 days'],
  ['last_30_days', 'Last 30 days'],
] as const;

/** What a button's `value` carries (JSON). */
export interface ReportActionValue {
  reportId: string;
  range?: string;
  /** For ad-hoc results (`reportId: 'adhoc'`): the query to run again. */
  query?: string;
}
