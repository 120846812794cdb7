// Rendering: charts (PNG), Block Kit messages, tables, CSV files and number formatting, from a ReportView.
export { type CsvColumn, csvCell, csvLine, toCsv, writeCsv } from './csv.js';
