/**
 * Every outcome word the TypeScript reads from a database function is in that function's list (DB_OUTCOMES), and
 * the list is what the function can answer: this reads each function's source as the database runs it (pg_proc,
 * after every migration) and collects the words it can return, on the embedded backend and on PostgreSQL 17. A
 * word added to or renamed in the SQL fails here; the TypeScript fails its type-check when the list changes.
 *
 * The reader follows the shapes the functions use: `return 'word'` or a SQL function's final `select 'word'`,
 * `return case … then 'a' else 'b' end`, a variable's assignments, and another function's answer passed on
 * (`return public.f(…)`, `select public.f(…)`, `v := public.f(…)`). For a
 * jsonb answer it reads the value after the outcome's key in each object built. An outcome it cannot read (a word
 * computed some other way) fails the test with the expression, so the reader or the function gets simpler.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_OUTCOME_KEYS, DB_OUTCOMES, type DbFunction } from '@/lib/db-outcomes';
import { DATABASES, type TestDatabase } from '../helpers/test-databases';

type Sources = Map<string, string>;

const keyOf = (fn: string): string | null => (DB_OUTCOME_KEYS as Record<string, string>)[fn] ?? null;

/** The words an expression that gives the outcome can have. */
function wordsOfExpression(sources: Sources, fn: string, body: string, expression: string, key: string | null, seen: Set<string>): string[] {
  const expr = expression.trim();
  if (/^'\w+'$/.test(expr)) return [expr.slice(1, -1)];
  if (/^null$/i.test(expr)) return [];
  if (/^case\b[\s\S]*\bend$/i.test(expr)) {
    const branches = [...expr.matchAll(/\b(?:then|else)\s+([^\s]+)/gi)].map((m) => m[1]!);
    const odd = branches.filter((b) => !/^'\w+'$/.test(b));
    if (odd.length > 0) throw new Error(`${fn}: cannot read the outcome of "${expr}"`);
    return branches.map((b) => b.slice(1, -1));
  }
  const call = /^public\.(\w+)\(/.exec(expr);
  if (call) return wordsOfFunction(sources, call[1]!, key, seen);
  if (/^v_\w+$/.test(expr)) {
    const assignments = [...body.matchAll(new RegExp(`\\b${expr}\\b(?:\\s+text)?\\s*:=\\s*([^;]+);`, 'gi'))].map((m) => m[1]!);
    if (assignments.length === 0) throw new Error(`${fn}: the outcome ${expr} is never assigned`);
    return assignments.flatMap((rhs) => wordsOfExpression(sources, fn, body, rhs, key, seen));
  }
  throw new Error(`${fn}: cannot read the outcome of "${expr}"`);
}

/** The value after `'key',` in a jsonb_build_object: a word, a variable, or a case expression up to its end. */
function valuesAfterKey(body: string, key: string): string[] {
  return [...body.matchAll(new RegExp(`'${key}'\\s*,\\s*(case\\b[\\s\\S]*?\\bend\\b|'\\w+'|[\\w.]+)`, 'gi'))].map((m) => m[1]!);
}

/** A `language sql` function answers its last statement: the expression of a final `select` on a line of its own. */
function finalSelect(body: string): string[] {
  const last = [...body.matchAll(/\n\s*select\s+/gi)].at(-1);
  if (last === undefined || /\breturn\b/i.test(body)) return [];
  return [body.slice(last.index + last[0].length).replace(/;\s*$/, '')];
}

/** Every word `fn` can answer (as text, or under `key` in its jsonb). */
function wordsOfFunction(sources: Sources, fn: string, key: string | null, seen = new Set<string>()): string[] {
  if (seen.has(fn)) return [];
  seen.add(fn);
  const source = sources.get(fn);
  if (source === undefined) throw new Error(`no function public.${fn}`);
  const body = source.replace(/--[^\n]*/g, '');
  if (key === null) {
    const returned = [...body.matchAll(/\breturn\s+([^;]+);/gi)].map((m) => m[1]!);
    return [...returned, ...finalSelect(body)].flatMap((expression) => wordsOfExpression(sources, fn, body, expression, key, seen));
  }
  const passedOn = [...body.matchAll(/\b(?:return|select)\s+public\.(\w+)\(/gi)].flatMap((m) => wordsOfFunction(sources, m[1]!, key, seen));
  return [...valuesAfterKey(body, key).flatMap((value) => wordsOfExpression(sources, fn, body, value, key, seen)), ...passedOn];
}

const sorted = (words: Iterable<string>) => [...new Set(words)].sort();
const answersOf = (sources: Sources, fn: string) => sorted(wordsOfFunction(sources, fn, keyOf(fn)));

describe.each(DATABASES)('the outcome words of the database’s functions on the $label', ({ open }) => {
  let db: TestDatabase;
  let sources: Sources;
  let returns: Map<string, string>;
  beforeAll(async () => {
    db = await open();
    const { rows } = await db.admin.query<{ name: string; source: string; returns: string }>(
      `select p.proname as name, p.prosrc as source, format_type(p.prorettype, null) as returns
         from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public' and p.prokind = 'f'`,
    );
    sources = new Map(rows.map((row) => [row.name, row.source]));
    returns = new Map(rows.map((row) => [row.name, row.returns]));
  });
  afterAll(() => db.close());

  it('each function answers exactly the words of its list', () => {
    const functions = Object.keys(DB_OUTCOMES) as DbFunction[];
    const inSql = Object.fromEntries(functions.map((fn) => [fn, answersOf(sources, fn)]));
    const listed = Object.fromEntries(functions.map((fn) => [fn, sorted(DB_OUTCOMES[fn])]));
    expect(inSql).toEqual(listed);
  });

  it('a function with an outcome key answers jsonb, every other one the word as text', () => {
    const kinds = Object.fromEntries(Object.keys(DB_OUTCOMES).map((fn) => [fn, returns.get(fn)]));
    const expected = Object.fromEntries(Object.keys(DB_OUTCOMES).map((fn) => [fn, keyOf(fn) ? 'jsonb' : 'text']));
    expect(kinds).toEqual(expected);
  });

  it('reads a word added or renamed in a function’s source, so the comparison above would fail', () => {
    const changed = (fn: string, from: string, to: string) => {
      const copy = new Map(sources);
      const source = sources.get(fn)!;
      expect(source).toContain(from);
      copy.set(fn, source.replace(from, to));
      return answersOf(copy, fn);
    };
    // Renamed in a text answer, in a jsonb answer, in a case branch, and in a function whose answer is passed on.
    expect(changed('mark_order_delivered', "'not_shipped'", "'not_yet_shipped'")).toEqual(['delivered', 'not_yet_shipped']);
    expect(changed('claim_shipment_send', "'busy'", "'in_use'")).toEqual(sorted(['claimed', 'in_use', 'done', 'not_to_pack']));
    expect(changed('claim_shipping_email', "'correction'", "'corrected'")).toEqual(['corrected', 'first', 'none']);
    const shipOrderRenamed = new Map(sources).set('ship_order', sources.get('ship_order')!.replace("'unchanged'", "'same'"));
    expect(answersOf(shipOrderRenamed, 'record_shipment_label')).toContain('same');
    // A word added by assigning the variable the answer carries.
    expect(changed('record_tracking_event', "v_outcome := 'shipped';", "v_outcome := 'shipped'; v_outcome := 'lost';")).toContain('lost');
    // An outcome computed some other way is not silently skipped.
    expect(() => changed('mark_order_delivered', "return 'delivered';", 'return lower(p_actor);')).toThrow(/cannot read the outcome/);
  });
});
