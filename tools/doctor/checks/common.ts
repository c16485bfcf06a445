/** Small pieces the checks share. */
import { Unreachable } from '../http';
import type { CheckResult, DoctorContext, HttpAnswer } from '../types';

/** A provider that gave no answer: nothing was verified, so the line fails and says what to look at. */
function unreachable(name: string, what: string, error: unknown, overrideVariable?: string): CheckResult {
  if (!(error instanceof Unreachable)) throw error;
  return {
    name,
    status: 'fail',
    detail: `could not reach ${what}: ${error.message}`,
    fix: `Check this machine's network and run the doctor again${overrideVariable ? ` (${overrideVariable}, if set, points the doctor at another address)` : ''}.`,
  };
}

/** The answer to a request, or, when there is none, the check's failing line (`unreachable`) to return instead. */
export async function reach(context: DoctorContext, failAs: { name: string; what: string; overrideVariable?: string }, url: string, init?: RequestInit): Promise<HttpAnswer | CheckResult> {
  try {
    return await context.request(url, init);
  } catch (error) {
    return unreachable(failAs.name, failAs.what, error, failAs.overrideVariable);
  }
}

/** Whether `reach` gave the check's line rather than an answer. */
export const isCheckResult = (answer: HttpAnswer | CheckResult): answer is CheckResult => typeof answer.status === 'string';

export function skip(name: string, detail: string): CheckResult {
  return { name, status: 'skip', detail };
}

/** `a`, `a and b`, `a, b and c`. */
export function listOf(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** A provider's JSON error message, for the detail line, in whichever of the common shapes it came. */
export function errorMessage(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const record = body as Record<string, unknown>;
  const nested = record.error;
  if (nested && typeof nested === 'object' && typeof (nested as Record<string, unknown>).message === 'string') return (nested as { message: string }).message;
  if (typeof nested === 'string') return nested;
  if (typeof record.message === 'string') return record.message;
  if (typeof record.msg === 'string') return record.msg;
  return undefined;
}
