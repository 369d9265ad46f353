/**
 * What a failed database call means, read from PostgreSQL's SQLSTATE codes (its documentation,
 * Appendix A, "PostgreSQL Error Codes") and node-postgres's connection errors. Drizzle wraps the
 * driver's error in its own, so each looks at the error and at its `cause`.
 */

function candidatesOf(error: unknown): unknown[] {
  return [error, (error as { cause?: unknown } | undefined)?.cause];
}

function codesOf(error: unknown): string[] {
  return candidatesOf(error)
    .map((candidate) => (candidate as { code?: unknown } | undefined)?.code)
    .filter((code): code is string => typeof code === 'string');
}

/** The code of the error, or of the error it wraps: a SQLSTATE ("23505") or Node's ("ECONNRESET"). */
export function readDatabaseErrorCode(error: unknown): string | undefined {
  return codesOf(error)[0];
}

function hasCode(error: unknown, codes: ReadonlySet<string>): boolean {
  return codesOf(error).some((code) => codes.has(code));
}

const uniqueViolationCode = '23505';

/** A row that would repeat a unique key; with `constraint`, only that constraint's. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  return candidatesOf(error).some((candidate) => {
    const { code, constraint: violated } = (candidate ?? {}) as {
      code?: unknown;
      constraint?: unknown;
    };
    return code === uniqueViolationCode && (constraint === undefined || violated === constraint);
  });
}

/** deadlock_detected, serialization_failure: PostgreSQL ended the transaction and expects it again. */
const conflictCodes = new Set(['40P01', '40001']);

export function isConflict(error: unknown): boolean {
  return hasCode(error, conflictCodes);
}

/** read_only_sql_transaction: a write sent to a standby. */
export function isReadOnlyTransaction(error: unknown): boolean {
  return hasCode(error, new Set(['25006']));
}

const databaseDownCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '08000', // connection_exception
  '08003', // connection_does_not_exist
  '08006', // connection_failure
]);

/** The database cannot be reached or is going away (node-postgres says some of it only in words). */
export function isDatabaseDown(error: unknown): boolean {
  if (hasCode(error, databaseDownCodes)) return true;
  return candidatesOf(error).some((candidate) => {
    const message = (candidate as Error | undefined)?.message ?? '';
    return (
      message.includes('Connection terminated') ||
      message.includes('is not queryable') ||
      message.includes('timeout exceeded when trying to connect')
    );
  });
}

/** disk_full: the database's disk has no room for the write. */
export function isDatabaseDiskFull(error: unknown): boolean {
  return hasCode(error, new Set(['53100']));
}

/** io_error: the database could not write to its disk. */
export function isDatabaseIoError(error: unknown): boolean {
  return hasCode(error, new Set(['58030']));
}
