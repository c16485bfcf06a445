/** A shop function's answer: whether it succeeded, its status, and its JSON object ({} when it sent none). */
export interface JsonAnswer {
  ok: boolean;
  status: number;
  body: Record<string, unknown>;
}

/** POSTs `body` as JSON to one of the shop's functions. A refusal is an answer; only a failed network throws. */
export async function postJson(path: string, body: unknown, headers: Record<string, string> = {}): Promise<JsonAnswer> {
  const response = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const answer: unknown = await response.json().catch(() => ({}));
  return { ok: response.ok, status: response.status, body: answer && typeof answer === 'object' && !Array.isArray(answer) ? (answer as Record<string, unknown>) : {} };
}
