/**
 * A connection URL fit for messages and logs: the password is replaced by `***`
 * (`postgres://bot:***@db:5432/pivotbot`). Never log the URL itself.
 */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://(unparsable URL)';
  }
}

/** True for the URLs `PIVOTBOT_STORE` may hold to select the PostgreSQL store. */
export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value);
}
