/** The action ids and button values the Slack handlers wire: the contract between messages and handlers. */

/** Stable action ids the Slack handlers listen for (Slack wants them unique within a block). */
export const ACTION_IDS = {
  rerun: 'pivot_rerun',
  /** One per range: `pivot_range_yesterday`, …; match with `RANGE_ACTION_PATTERN`. */
  rangePrefix: 'pivot_range_',
  csv: 'pivot_csv',
  /** "Schedule this" on an ad-hoc result: opens the schedule modal. */
  scheduleThis: 'pivot_schedule_this',
  /** "Watch this" on an ad-hoc result: opens the modal that saves an alert rule on its query. */
  watchThis: 'pivot_watch_this',
  /** "Remove" beside a watch in `/pivot alerts` and App Home (admins; Slack's confirm dialog first). */
  unwatch: 'pivot_unwatch',
  /** "Explain" on an answer with a comparison: why it moved, posted in its thread. */
  explain: 'pivot_explain',
  alertAck: 'alert_ack',
  /** Kept for buttons posted before the three snooze lengths; its value carries `hours`. */
  alertSnooze: 'alert_snooze',
  alertSnooze1h: 'alert_snooze_1h',
  alertSnooze4h: 'alert_snooze_4h',
  alertSnooze24h: 'alert_snooze_24h',
} as const;
/** The Snooze buttons of an alert parent: hours and action id (Slack wants action ids unique in a block). */
export const SNOOZE_ACTIONS = [
  [1, ACTION_IDS.alertSnooze1h],
  [4, ACTION_IDS.alertSnooze4h],
  [24, ACTION_IDS.alertSnooze24h],
] as const;
/** Every alert button: `alert_ack`, `alert_snooze`, `alert_snooze_1h` … (the value says which incident and how long). */
export const ALERT_ACTION_PATTERN = /^alert_(ack|snooze(_\d+h)?)$/;
export const RANGE_ACTION_PATTERN = /^pivot_range_/;
/** The inputs of pivotbot's modals (`dispatch_action`): the query builder's `pivot_qm_metrics`, …, Watch this's `pivot_wm_on`, … */
export const MODAL_ACTION_PATTERN = /^pivot_(qm|wm)_/;
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
