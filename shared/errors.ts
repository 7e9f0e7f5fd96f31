/**
 * Errors are values. Every refusal Tether gives carries one of these stable codes (PRODUCT.md),
 * a short message that says what to fix, and details a program can act on.
 */
export const ERROR_CODES = [
  'invalid_request',
  'missing_context',
  'unknown_scope',
  'invalid_handle',
  'target_not_found',
  'ambiguous_target',
  'role_conflict',
  'read_only_target',
  'not_signed_in',
  'account_mismatch',
  'draft_in_progress',
  'target_busy',
  'context_changed',
  'field_changed',
  'approval_required',
  'approval_denied',
  'browser_not_connected',
  'timeout',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface TetherError {
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

export function tetherError(code: ErrorCode, message: string, details?: Record<string, unknown>): TetherError {
  return details === undefined ? { code, message } : { code, message, details };
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}

/** A result that is either a value or a refusal; the pure core returns these instead of throwing. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: TetherError };

export function success<T>(value: T): Outcome<T> {
  return { ok: true, value };
}

export function failure<T = never>(error: TetherError): Outcome<T> {
  return { ok: false, error };
}
