import { apiErrorStatusByCode } from '@sticky/contracts';
import type { ApiErrorCode, ApiErrorStatus } from '@sticky/contracts';

/** The codes of the contracts' `apiErrorCodeSchema`: the web app reads the same ones. */
export type AppErrorCode = ApiErrorCode;

/**
 * The one error type services throw. Each API maps it to its own envelope in one module
 * (plugins/error-handler.ts): GIPHY's `{meta}` under /v1, `{success: false, error}` under /api
 * (docs/api.md, "Errors").
 */
export class AppError extends Error {
  readonly status: ApiErrorStatus;

  constructor(
    readonly code: AppErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
    this.status = apiErrorStatusByCode[code];
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
