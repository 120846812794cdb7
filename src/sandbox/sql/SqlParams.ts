/**
 * Values bound to `$n` placeholders of one DuckDB statement, so nothing a request carries (filter
 * values, dates, zones, formats, metric arguments, thresholds) is ever spliced into SQL text. Equal
 * values share one placeholder: SQL built twice from the same request value is the same text, which
 * the metric components rely on to be computed once.
 *
 * @example const params = new SqlParams(); const sql = `f.country = ${params.ref('BR')}`; await db.query(sql, params.values);
 */
export type SqlValue = string | number | boolean;

export class SqlParams {
  readonly values: SqlValue[] = [];
  private readonly placeholders = new Map<string, string>();

  /** The placeholder (`$1`, `$2`…) holding `value`. */
  ref(value: SqlValue): string {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new Error(`cannot bind ${value}`);
    const key = `${typeof value}:${String(value)}`;
    let placeholder = this.placeholders.get(key);
    if (placeholder === undefined) {
      this.values.push(value);
      placeholder = `$${this.values.length}`;
      this.placeholders.set(key, placeholder);
    }
    return placeholder;
  }
}
