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

  /**
   * The statement and the values it uses, renumbered `$1…$n` in order of first use. A value
   * registered for text that did not end up in the statement (the zone of a query with no local
   * time in it) would otherwise be one value too many for DuckDB to bind. The text holds no request
   * value, so every `$n` in it is a placeholder of ours.
   */
  finish(sql: string): { sql: string; values: SqlValue[] } {
    const renumbered = new Map<number, string>();
    const values: SqlValue[] = [];
    const text = sql.replace(/\$(\d+)/g, (_, n: string) => {
      const index = Number(n);
      let placeholder = renumbered.get(index);
      if (placeholder === undefined) {
        values.push(this.values[index - 1] as SqlValue);
        placeholder = `$${values.length}`;
        renumbered.set(index, placeholder);
      }
      return placeholder;
    });
    return { sql: text, values };
  }
}
