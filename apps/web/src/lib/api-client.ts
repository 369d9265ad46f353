import type { ApiErrorCode } from '@sticky/contracts';

/**
 * A small typed JSON client for our own `/api/*` endpoints (same origin, cookies included).
 *
 * Every successful body is checked against a zod schema from `@sticky/contracts`. The schema
 * may be passed as a promise (`import('@sticky/contracts').then((m) => m.someSchema)`), so a
 * module on the first-paint path can start the request and the download of zod at the same
 * time instead of putting zod into the initial bundle. Failures are thrown as `ApiClientError`.
 */

/** The part of a zod schema the client uses; any zod schema fits. */
export interface ResponseSchema<T> {
  safeParse(
    data: unknown,
  ): { success: true; data: T } | { success: false; error: { message: string } };
}

export type SchemaInput<T> = ResponseSchema<T> | Promise<ResponseSchema<T>>;

/**
 * What went wrong: the server's `error.code` (the contract's enum, shared with the server), or
 * one the client gives: `network` (no answer), `invalid_response` (an answer that breaks the
 * contract) and `http_error` (an error status without our error body, e.g. from a proxy).
 */
export type ApiClientErrorCode = ApiErrorCode | 'network' | 'invalid_response' | 'http_error';

export class ApiClientError extends Error {
  constructor(
    /** HTTP status, or 0 when no response arrived (offline, aborted, blocked). */
    readonly status: number,
    readonly code: ApiClientErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ApiClientError';
  }
}

export function isApiClientError(error: unknown): error is ApiClientError {
  return error instanceof ApiClientError;
}

export interface ApiRequestOptions {
  signal?: AbortSignal;
  /** Defaults to `same-origin`; `omit` for calls that must not carry the session cookie. */
  credentials?: RequestCredentials;
  /** Lets the request outlive the page (analytics on the way out). */
  keepalive?: boolean;
  /**
   * Non-2xx statuses whose body is still an answer, parsed with the schema instead of thrown
   * (`GET /api/auth/me` answers 401 with `{success: false, user: null}`).
   */
  acceptStatuses?: readonly number[];
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface ApiRequest<T> extends ApiRequestOptions {
  method: Method;
  path: string;
  body?: unknown;
  /** `null` when the endpoint answers without a body (204) or the body does not matter. */
  schema: SchemaInput<T> | null;
}

function readErrorBody(body: unknown): { code: ApiErrorCode; message: string } | null {
  if (typeof body !== 'object' || body === null || !('error' in body)) return null;
  const error = (body as { error: unknown }).error;
  if (typeof error !== 'object' || error === null) return null;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code !== 'string' || typeof message !== 'string') return null;
  // Checked against the enum by the server's response schemas; the enum itself is zod, which
  // the first screen does without (api-client.test.ts passes every code of it through).
  return { code: code as ApiErrorCode, message };
}

async function readJson(response: Response): Promise<unknown> {
  if (response.status === 204 || response.status === 205) return undefined;
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiClientError(
      response.status,
      'invalid_response',
      `The server sent an unreadable answer (HTTP ${response.status}).`,
    );
  }
}

export async function apiRequest<T>(request: ApiRequest<T>): Promise<T> {
  const { method, path, body, schema, signal, credentials, keepalive, acceptStatuses } = request;
  if (!path.startsWith('/api/')) {
    throw new TypeError(`apiRequest is for same-origin /api/ paths, got "${path}"`);
  }
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: credentials ?? 'same-origin',
      signal,
      keepalive,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiClientError(0, 'network', 'Could not reach the server. Check your connection.');
  }

  const data = await readJson(response);
  const isAccepted = response.ok || (acceptStatuses?.includes(response.status) ?? false);
  if (!isAccepted) {
    const error = readErrorBody(data);
    throw new ApiClientError(
      response.status,
      error?.code ?? 'http_error',
      error?.message ?? `Request failed (HTTP ${response.status}).`,
    );
  }
  if (schema === null) return undefined as T;
  const parsed = (await schema).safeParse(data);
  if (!parsed.success) {
    throw new ApiClientError(
      response.status,
      'invalid_response',
      `Unexpected answer from ${method} ${path.split('?')[0]}: ${parsed.error.message}`,
    );
  }
  return parsed.data;
}

export function apiGet<T>(path: string, schema: SchemaInput<T>, options: ApiRequestOptions = {}) {
  return apiRequest<T>({ ...options, method: 'GET', path, schema });
}

export function apiPost<T>(
  path: string,
  body: unknown,
  schema: SchemaInput<T> | null,
  options: ApiRequestOptions = {},
) {
  return apiRequest<T>({ ...options, method: 'POST', path, body, schema });
}

export function apiPut<T>(
  path: string,
  body: unknown,
  schema: SchemaInput<T> | null,
  options: ApiRequestOptions = {},
) {
  return apiRequest<T>({ ...options, method: 'PUT', path, body, schema });
}

export function apiDelete<T>(
  path: string,
  schema: SchemaInput<T> | null,
  options: ApiRequestOptions = {},
) {
  return apiRequest<T>({ ...options, method: 'DELETE', path, schema });
}

export function apiPatch<T>(
  path: string,
  body: unknown,
  schema: SchemaInput<T> | null,
  options: ApiRequestOptions = {},
) {
  return apiRequest<T>({ ...options, method: 'PATCH', path, body, schema });
}
