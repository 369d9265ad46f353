import { isIP } from 'node:net';
import { z } from 'zod';

/* How one environment variable's text is read (config/env.ts): a wrong one says what it wants. */

/** Comma-separated values, trimmed, empty ones dropped. */
export const csv = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? '')
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean),
  );

export const positiveInt = (name: string, fallback: number, max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value.trim() === '') return fallback;
      const parsed = Number(value);
      if (!Number.isInteger(parsed) || parsed < 1 || parsed > max) {
        ctx.addIssue({
          code: 'custom',
          message: `${name} must be a whole number from 1 to ${max}, got ${JSON.stringify(value)}`,
        });
        return z.NEVER;
      }
      return parsed;
    });

/** Like positiveInt, where 0 means "none" (no wait, no floor). */
export const wholeNumber = (name: string, fallback: number) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value.trim() === '') return fallback;
      const parsed = Number(value);
      if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(parsed)) {
        ctx.addIssue({
          code: 'custom',
          message: `${name} must be a whole number from 0, got ${JSON.stringify(value)}`,
        });
        return z.NEVER;
      }
      return parsed;
    });

/** One of `values`, trimmed (and lower-cased when asked); `fallback` when empty. */
export const oneOf = <const T extends string, F extends T | undefined>(
  name: string,
  values: readonly T[],
  options: { fallback: F; expected: string; isCaseInsensitive?: boolean },
) =>
  z
    .string()
    .optional()
    .transform((value, ctx): T | F => {
      const text = value?.trim() ?? '';
      const choice = options.isCaseInsensitive ? text.toLowerCase() : text;
      if (choice === '') return options.fallback;
      if ((values as readonly string[]).includes(choice)) return choice as T;
      ctx.addIssue({
        code: 'custom',
        message: `${name} must be ${options.expected}, got ${JSON.stringify(value)}`,
      });
      return z.NEVER;
    });

/** 1/true/yes/on or 0/false/no/off; unset (undefined) when empty. */
export const booleanFlag = (name: string, expected: string) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value.trim() === '') return undefined;
      if (['1', 'true', 'yes', 'on'].includes(value.trim().toLowerCase())) return true;
      if (['0', 'false', 'no', 'off'].includes(value.trim().toLowerCase())) return false;
      ctx.addIssue({
        code: 'custom',
        message: `${name} must be ${expected}, got ${JSON.stringify(value)}`,
      });
      return z.NEVER;
    });

export const httpUrl = (name: string) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value.trim() === '') return undefined;
      try {
        const url = new URL(value);
        if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('protocol');
        return url.toString().replace(/\/$/, '');
      } catch {
        ctx.addIssue({
          code: 'custom',
          message: `${name} must be an http(s) URL, got ${JSON.stringify(value)}`,
        });
        return z.NEVER;
      }
    });

/** An IPv4 or IPv6 address, optionally with a /prefix. */
export function isAddressOrCidr(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/** A loopback host name or address (a laptop's own machine). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\./.test(host)
  );
}

export const postgresUrl = (name: string) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value.trim() === '') return undefined;
      if (!/^postgres(ql)?:\/\//.test(value.trim())) {
        ctx.addIssue({
          code: 'custom',
          message: `${name} must start with postgres:// or postgresql://, got ${JSON.stringify(redactUrl(value))}`,
        });
        return z.NEVER;
      }
      return value.trim();
    });

export const optionalText = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

export function redactUrl(value: string): string {
  return value.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}
