// The view contract: what a report run produces (reports/) and every renderer consumes (render/), so neither depends on the other for it.
export type * from './ReportView.js';
