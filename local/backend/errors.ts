/** Errors in the shapes and statuses that PostgREST and Supabase Auth use, so supabase-js reads them as it would. */

export interface PostgrestErrorBody {
  code: string;
  details: string | null;
  hint: string | null;
  message: string;
}

export class RestError extends Error {
  constructor(
    readonly status: number,
    readonly body: PostgrestErrorBody,
  ) {
    super(body.message);
  }
}

export const restError = (status: number, code: string, message: string, details: string | null = null, hint: string | null = null) => new RestError(status, { code, message, details, hint });

export function restErrorResponse(error: RestError): Response {
  return Response.json(error.body, { status: error.status });
}

interface PgError {
  code?: string;
  message: string;
  detail?: string;
  hint?: string;
}

/** PostgREST's table of SQLSTATE → HTTP status. */
function statusForSqlState(code: string, role: string): number {
  if (code === '42501') return role === 'anon' ? 401 : 403;
  if (code === '23503' || code === '23505') return 409;
  if (code === '42P01' || code === '42883') return 404;
  if (code === '25006') return 405;
  if (code.startsWith('08') || code.startsWith('53') || code === '57P01') return 503;
  if (code.startsWith('0L') || code.startsWith('0P') || code.startsWith('28')) return 403;
  if (
    code.startsWith('09') ||
    code.startsWith('25') ||
    code.startsWith('2D') ||
    code.startsWith('38') ||
    code.startsWith('39') ||
    code.startsWith('3B') ||
    code.startsWith('40') ||
    code.startsWith('XX')
  ) {
    return 500;
  }
  return 400;
}

export function fromPgError(error: unknown, role: string): RestError {
  if (error instanceof RestError) return error;
  const pg = error as PgError;
  if (!pg?.code) return restError(500, 'PGRST000', 'The embedded backend failed to run this request.', String(pg?.message ?? error));
  return new RestError(statusForSqlState(pg.code, role), { code: pg.code, message: pg.message, details: pg.detail ?? null, hint: pg.hint ?? null });
}

/** Supabase Auth (GoTrue) error body. */
export function authError(status: number, errorCode: string, msg: string): Response {
  return Response.json({ code: status, error_code: errorCode, msg }, { status });
}
