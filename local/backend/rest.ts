/**
 * The subset of PostgREST (Supabase's /rest/v1) that this project's code uses: select with column lists,
 * eq/neq/gt/gte/lt/lte/like/ilike/is/in filters, order, limit/offset, single-object reads, insert
 * (one or many rows, return=minimal|representation), update, delete and rpc. Each request runs in one
 * transaction as the role of its JWT with request.jwt.claims set, so RLS applies exactly as on Supabase.
 */
import { types } from '@electric-sql/pglite';
import type { Database } from './database';
import { fromPgError, restError, restErrorResponse, RestError } from './errors';
import { JwtError, verifyToken, type Claims } from './keys';
import { quoteIdent, type SchemaInfo, type TableInfo } from './schema';

const JSON_PARSERS = { [types.NUMERIC]: Number, [types.INT8]: Number };
const RESERVED_PARAMS = new Set(['select', 'order', 'limit', 'offset', 'columns', 'on_conflict']);
// Maps, not object literals: a lookup by a name from the URL must never reach Object.prototype (is.constructor).
const COMPARISONS = new Map([
  ['eq', '='],
  ['neq', '<>'],
  ['gt', '>'],
  ['gte', '>='],
  ['lt', '<'],
  ['lte', '<='],
  ['like', 'like'],
  ['ilike', 'ilike'],
]);
const IS_VALUES = new Map([
  ['null', 'null'],
  ['true', 'true'],
  ['false', 'false'],
  ['unknown', 'unknown'],
]);
const OBJECT_MEDIA_TYPE = 'application/vnd.pgrst.object+json';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

class Params {
  readonly values: Array<string | null> = [];
  /** A placeholder for a value, cast to the column's catalog type (PostgREST also sends values as text). */
  add(value: Json | undefined, type: string): string {
    this.values.push(toPgText(value, type));
    return `$${this.values.length}::text::${type}`;
  }
}

function toPgText(value: Json | undefined, type: string): string | null {
  if (value === null || value === undefined) return null;
  if (type === 'jsonb' || type === 'json') return JSON.stringify(value);
  // A JSON list for an array parameter becomes an array, as PostgREST reads it (`uuid[]` from `["…", "…"]`).
  if (Array.isArray(value) && type.endsWith('[]')) return `{${value.map(arrayElement).join(',')}}`;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function arrayElement(value: Json): string {
  if (value === null) return 'NULL';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return `"${text.replace(/[\\"]/g, '\\$&')}"`;
}

function columnType(table: TableInfo, tableName: string, column: string): string {
  const type = table.columns.get(column);
  if (!type) throw restError(400, '42703', `column ${tableName}.${column} does not exist`);
  return type;
}

function parseSelect(table: TableInfo, tableName: string, select: string | null): string {
  if (!select || select.trim() === '*') return '*';
  return select
    .split(',')
    .map((raw) => raw.trim())
    .filter(Boolean)
    .map((column) => {
      if (column === '*') return '*';
      if (column.includes('(')) {
        throw restError(400, 'PGRST100', `Embedded resources (${column}) are not supported by the embedded backend; query each table separately.`);
      }
      if (/[:>-]/.test(column)) throw restError(400, 'PGRST100', `Aliases, casts and JSON paths in select (${column}) are not supported by the embedded backend.`);
      columnType(table, tableName, column);
      return quoteIdent(column);
    })
    .join(', ');
}

/** Splits `(a,"b,c",d)` into its items, honouring double quotes. */
function parseList(raw: string): string[] {
  if (!raw.startsWith('(') || !raw.endsWith(')')) throw restError(400, 'PGRST100', `failed to parse filter list ${raw}`);
  const items: string[] = [];
  let current = '';
  let quoted = false;
  for (const char of raw.slice(1, -1)) {
    if (char === '"') quoted = !quoted;
    else if (char === ',' && !quoted) {
      items.push(current);
      current = '';
    } else current += char;
  }
  if (current !== '' || items.length) items.push(current);
  return items;
}

function parseFilters(table: TableInfo, tableName: string, search: URLSearchParams, params: Params): string[] {
  const conditions: string[] = [];
  for (const [column, expression] of search) {
    if (RESERVED_PARAMS.has(column)) continue;
    const type = columnType(table, tableName, column);
    const dot = expression.indexOf('.');
    const operator = dot === -1 ? expression : expression.slice(0, dot);
    const operand = dot === -1 ? '' : expression.slice(dot + 1);
    const ident = quoteIdent(column);
    const comparison = COMPARISONS.get(operator);
    if (comparison) {
      const pattern = operator === 'like' || operator === 'ilike';
      conditions.push(`${ident} ${comparison} ${params.add(pattern ? operand.replace(/\*/g, '%') : operand, pattern ? 'text' : type)}`);
    } else if (operator === 'in') {
      const items = parseList(operand);
      conditions.push(items.length ? `${ident} in (${items.map((item) => params.add(item, type)).join(', ')})` : 'false');
    } else if (operator === 'is') {
      const value = IS_VALUES.get(operand.toLowerCase());
      if (!value) throw restError(400, 'PGRST100', `failed to parse filter (${expression}): is. takes null, true, false or unknown`);
      conditions.push(`${ident} is ${value}`);
    } else if (/^[a-z]+$/.test(operator) && dot !== -1) {
      throw restError(400, 'PGRST100', `The filter operator "${operator}" is not supported by the embedded backend.`);
    } else {
      throw restError(400, 'PGRST100', `failed to parse filter (${expression})`);
    }
  }
  return conditions;
}

function parseOrder(table: TableInfo, tableName: string, order: string | null): string {
  if (!order) return '';
  const terms = order.split(',').map((term) => {
    const [column = '', ...modifiers] = term.trim().split('.');
    columnType(table, tableName, column);
    const direction = modifiers.includes('desc') ? 'desc' : 'asc';
    const nulls = modifiers.includes('nullsfirst') ? ' nulls first' : modifiers.includes('nullslast') ? ' nulls last' : '';
    const unknown = modifiers.filter((m) => !['asc', 'desc', 'nullsfirst', 'nullslast'].includes(m));
    if (unknown.length) throw restError(400, 'PGRST100', `failed to parse order (${term})`);
    return `${quoteIdent(column)} ${direction}${nulls}`;
  });
  return ` order by ${terms.join(', ')}`;
}

function parseCount(name: string, raw: string | null): number | undefined {
  if (raw === null) return undefined;
  if (!/^\d+$/.test(raw)) throw restError(400, 'PGRST100', `${name} must be a non-negative integer`);
  return Number(raw);
}

function preferences(request: Request): Map<string, string> {
  const prefer = new Map<string, string>();
  for (const part of (request.headers.get('prefer') ?? '').split(',')) {
    const [key, value] = part.trim().split('=');
    if (key) prefer.set(key, value ?? '');
  }
  return prefer;
}

async function readClaims(request: Request): Promise<Claims> {
  const bearer = request.headers.get('authorization')?.match(/^Bearer\s+(.+)$/i)?.[1];
  const token = bearer ?? request.headers.get('apikey');
  if (!token) throw restError(401, 'PGRST301', 'No API key found in request', null, 'No `apikey` request header or url param was found.');
  try {
    return await verifyToken(token);
  } catch (error) {
    const expired = error instanceof JwtError && error.expired;
    throw restError(401, expired ? 'PGRST303' : 'PGRST301', (error as Error).message);
  }
}

async function readBody(request: Request): Promise<Json> {
  const text = await request.text();
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as Json;
  } catch {
    throw restError(400, 'PGRST102', 'Empty or invalid json');
  }
}

function jsonResponse(body: unknown, status: number, headers: Record<string, string> = {}): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: body === undefined ? headers : { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

/** Rows as PostgREST returns them, honouring the single-object media type. */
function shape(rows: Record<string, unknown>[], single: boolean): unknown {
  if (!single) return rows;
  if (rows.length !== 1) {
    throw restError(406, 'PGRST116', 'JSON object requested, multiple (or no) rows returned', `The result contains ${rows.length} rows`);
  }
  return rows[0];
}

export function createRestHandler(db: Database, schema: SchemaInfo) {
  async function run<T>(claims: Claims, work: (query: (sql: string, values: Array<string | null>) => Promise<Record<string, unknown>[]>) => Promise<T>): Promise<T> {
    return db.transaction(async (tx) => {
      // The role name comes from a verified token and is one of three fixed values.
      await tx.exec(`set local role ${claims.role}`);
      await tx.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify(claims)]);
      return work(async (sql, values) => (await tx.query<Record<string, unknown>>(sql, values, { parsers: JSON_PARSERS })).rows);
    });
  }

  async function handleTable(request: Request, url: URL, name: string, claims: Claims): Promise<Response> {
    const table = schema.tables.get(name);
    if (!table) throw restError(404, 'PGRST205', `Could not find the table 'public.${name}' in the schema cache`);
    const search = url.searchParams;
    const params = new Params();
    const single = (request.headers.get('accept') ?? '').includes(OBJECT_MEDIA_TYPE);
    const prefer = preferences(request);
    const target = `public.${quoteIdent(name)}`;
    const returning = prefer.get('return') === 'representation' ? ` returning ${parseSelect(table, name, search.get('select'))}` : '';

    if (request.method === 'GET' || request.method === 'HEAD') {
      const columns = parseSelect(table, name, search.get('select'));
      const conditions = parseFilters(table, name, search, params);
      const where = conditions.length ? ` where ${conditions.join(' and ')}` : '';
      const limit = parseCount('limit', search.get('limit'));
      const offset = parseCount('offset', search.get('offset'));
      const sql = `select ${columns} from ${target}${where}${parseOrder(table, name, search.get('order'))}${limit === undefined ? '' : ` limit ${limit}`}${offset === undefined ? '' : ` offset ${offset}`}`;
      const { rows, total } = await run(claims, async (query) => ({
        rows: await query(sql, params.values),
        total: prefer.has('count') ? Number((await query(`select count(*) as n from ${target}${where}`, params.values))[0]?.n) : undefined,
      }));
      const start = offset ?? 0;
      const range = `${rows.length ? `${start}-${start + rows.length - 1}` : '*'}/${total ?? '*'}`;
      const body = shape(rows, single);
      return jsonResponse(request.method === 'HEAD' ? undefined : body, 200, { 'content-range': range });
    }

    if (request.method === 'POST') {
      if (search.has('on_conflict') || prefer.has('resolution')) throw restError(400, 'PGRST100', 'Upsert is not supported by the embedded backend.');
      const body = await readBody(request);
      const rows = (Array.isArray(body) ? body : [body]) as Json[];
      if (!rows.length || rows.some((row) => typeof row !== 'object' || row === null || Array.isArray(row))) {
        throw restError(400, 'PGRST102', 'Insert takes a JSON object or an array of objects');
      }
      const objects = rows as Array<Record<string, Json>>;
      const listed = search
        .get('columns')
        ?.split(',')
        .map((c) => c.trim().replace(/^"|"$/g, ''));
      const columns = listed ?? [...new Set(objects.flatMap((row) => Object.keys(row)))];
      const columnTypes = columns.map((column) => columnType(table, name, column));
      // PostgREST: one object takes column defaults; missing keys in a bulk insert are null unless missing=default.
      const useDefault = !Array.isArray(body) || prefer.get('missing') === 'default';
      const tuples = objects.map(
        (row) => `(${columns.map((column, i) => (Object.hasOwn(row, column) ? params.add(row[column], columnTypes[i] ?? 'text') : useDefault ? 'default' : 'null')).join(', ')})`,
      );
      const sql = columns.length ? `insert into ${target} (${columns.map(quoteIdent).join(', ')}) values ${tuples.join(', ')}${returning}` : `insert into ${target} default values${returning}`;
      const inserted = await run(claims, (query) => query(sql, params.values));
      return returning ? jsonResponse(shape(inserted, single), 201) : jsonResponse(undefined, 201);
    }

    if (request.method === 'PATCH' || request.method === 'DELETE') {
      const conditions = parseFilters(table, name, search, params);
      const where = conditions.length ? ` where ${conditions.join(' and ')}` : '';
      let sql: string;
      if (request.method === 'PATCH') {
        const body = await readBody(request);
        if (typeof body !== 'object' || body === null || Array.isArray(body) || !Object.keys(body).length) {
          throw restError(400, 'PGRST102', 'Update takes a JSON object with at least one column');
        }
        const sets = Object.entries(body).map(([column, value]) => `${quoteIdent(column)} = ${params.add(value, columnType(table, name, column))}`);
        sql = `update ${target} set ${sets.join(', ')}${where}${returning}`;
      } else {
        sql = `delete from ${target}${where}${returning}`;
      }
      const changed = await run(claims, (query) => query(sql, params.values));
      return returning ? jsonResponse(shape(changed, single), 200) : jsonResponse(undefined, 204);
    }

    throw restError(405, 'PGRST117', `Method ${request.method} is not supported by the embedded backend`);
  }

  async function handleRpc(request: Request, url: URL, name: string, claims: Claims): Promise<Response> {
    const fn = schema.functions.get(name);
    if (!fn) throw restError(404, 'PGRST202', `Could not find the function public.${name} in the schema cache`);
    let args: Record<string, Json>;
    if (request.method === 'POST') {
      const body = await readBody(request);
      if (typeof body !== 'object' || body === null || Array.isArray(body)) throw restError(400, 'PGRST102', 'RPC arguments must be a JSON object');
      args = body;
    } else if (request.method === 'GET') {
      args = Object.fromEntries(url.searchParams);
    } else {
      throw restError(405, 'PGRST117', `Method ${request.method} is not supported for rpc`);
    }
    const params = new Params();
    const named = Object.entries(args).map(([arg, value]) => {
      const type = fn.args.get(arg);
      if (!type) throw restError(404, 'PGRST202', `Could not find the function public.${name}(${Object.keys(args).join(', ')}) in the schema cache`);
      return `${quoteIdent(arg)} => ${params.add(value, type)}`;
    });
    const call = `public.${quoteIdent(name)}(${named.join(', ')})`;
    const rows = await run(claims, (query) => query(fn.returnsSet ? `select * from ${call}` : `select ${call} as result`, params.values));
    const single = (request.headers.get('accept') ?? '').includes(OBJECT_MEDIA_TYPE);
    return jsonResponse(fn.returnsSet ? shape(rows, single) : (rows[0]?.result ?? null), 200);
  }

  return async function handle(request: Request): Promise<Response> {
    let role = 'anon';
    try {
      const claims = await readClaims(request);
      role = claims.role;
      const url = new URL(request.url);
      const path = url.pathname.replace(/^\/rest\/v1\/?/, '');
      const rpc = path.match(/^rpc\/([A-Za-z0-9_]+)$/);
      if (rpc?.[1]) return await handleRpc(request, url, rpc[1], claims);
      if (/^[A-Za-z0-9_]+$/.test(path)) return await handleTable(request, url, path, claims);
      throw restError(404, 'PGRST125', `/rest/v1/${path} is not supported by the embedded backend (tables and /rpc/ functions only).`);
    } catch (error) {
      if (!(error instanceof RestError) && !(error as { code?: string })?.code) console.error('[embedded rest]', error);
      return restErrorResponse(fromPgError(error, role));
    }
  };
}
