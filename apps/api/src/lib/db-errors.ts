/** True for a unique-constraint violation on either engine. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  const { code } = error;
  // better-sqlite3 reports SQLITE_CONSTRAINT_UNIQUE / _PRIMARYKEY; pg reports SQLSTATE 23505.
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}
