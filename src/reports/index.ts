// Report definitions (YAML): schema, loading with file:line errors, date ranges, compilation, comparison, and the ReportView they produce.
export type * from './ReportView.js';
