/**
 * Until launch the schema's history is folded: each table, view, type, index, function (by name and argument
 * types), trigger and policy is created by exactly one migration, in its current form, so a reader finds every
 * object's one body in one place. A change before launch edits the object where it is defined; a new object goes in
 * a new migration. This test reads supabase/migrations and names the object and both files when something is
 * created twice, a redefinition with `create or replace` included.
 *
 * At launch the migrations up to LAUNCHED_UP_TO freeze (they are what the live database ran): from then on each
 * change is a new migration that `create or replace`s (or drops and creates) what it changes, as a deployed database
 * must be changed, and only the frozen files are still held to one definition each.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const MIGRATIONS_DIR = join(import.meta.dirname, '..', '..', 'supabase', 'migrations');
/** The last migration deployed; null until launch (see docs/architecture.md, "One schema, each object once"). */
const LAUNCHED_UP_TO: string | null = null;

interface Definition {
  object: string;
  file: string;
}

/** The statements' text with comments, quoted strings and function bodies blanked, so only the DDL is matched. */
function maskSql(sql: string): string {
  let out = '';
  let i = 0;
  while (i < sql.length) {
    const rest = sql.slice(i);
    const dollar = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(rest);
    let end: number;
    if (rest.startsWith('--')) end = sql.indexOf('\n', i);
    else if (rest.startsWith('/*')) end = sql.indexOf('*/', i) + 2;
    else if (rest[0] === "'") end = /^'(?:[^']|'')*'/.exec(rest)?.[0].length ?? rest.length;
    else if (dollar) end = sql.indexOf(dollar[0], i + dollar[0].length) + dollar[0].length;
    else {
      out += sql[i];
      i += 1;
      continue;
    }
    if (rest[0] === "'") end += i;
    if (end < i) end = sql.length;
    // A blanked span keeps its place, so a statement's words stay apart.
    out += ' '.repeat(end - i);
    i = end;
  }
  return out;
}

/** Argument types as PostgreSQL identifies a function: out arguments, names and defaults left out, spellings made one. */
function argumentTypes(args: string): string {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of args) {
    if (ch === '(') depth += 1;
    if (ch === ')') depth -= 1;
    if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  if (current.trim()) parts.push(current);
  const aliases: Record<string, string> = { int: 'integer', int4: 'integer', int8: 'bigint', bool: 'boolean', timestamptz: 'timestamp with time zone', varchar: 'character varying' };
  return parts
    .filter((part) => !/^\s*out\s/i.test(part))
    .map((part) => {
      const words = part
        .replace(/\s+(default|=)\s[\s\S]*$/i, '')
        .trim()
        .toLowerCase()
        .split(/\s+/)
        .filter((w) => !['in', 'inout', 'variadic'].includes(w));
      // The first word is the argument's name when a type follows it.
      const type = (words.length > 1 && !['double', 'character', 'timestamp', 'time', 'bit'].includes(words[0] ?? '') ? words.slice(1) : words).join(' ');
      return aliases[type] ?? type.replace(/^public\./, '');
    })
    .join(', ');
}

const qualified = (name: string) => (name.includes('.') ? name : `public.${name}`).replace(/"/g, '').toLowerCase();

/** Every object a migration's SQL creates, in order. */
function definitions(sql: string): string[] {
  const masked = maskSql(sql);
  const found: Array<{ at: number; object: string }> = [];
  const add = (pattern: RegExp, objectOf: (m: RegExpExecArray) => string) => {
    for (const m of masked.matchAll(pattern)) found.push({ at: m.index, object: objectOf(m) });
  };
  const name = String.raw`([\w."]+)`;
  add(new RegExp(String.raw`\bcreate\s+(?:or\s+replace\s+)?(?:materialized\s+)?view\s+(?:if\s+not\s+exists\s+)?${name}`, 'gi'), (m) => `view ${qualified(m[1] ?? '')}`);
  add(new RegExp(String.raw`\bcreate\s+(?:unlogged\s+)?table\s+(?:if\s+not\s+exists\s+)?${name}`, 'gi'), (m) => `table ${qualified(m[1] ?? '')}`);
  add(new RegExp(String.raw`\bcreate\s+type\s+${name}`, 'gi'), (m) => `type ${qualified(m[1] ?? '')}`);
  add(
    new RegExp(String.raw`\bcreate\s+(?:unique\s+)?index\s+(?:concurrently\s+)?(?:if\s+not\s+exists\s+)?(\w+)\s+on\s+(?:only\s+)?${name}`, 'gi'),
    (m) => `index ${m[1]?.toLowerCase()} on ${qualified(m[2] ?? '')}`,
  );
  add(new RegExp(String.raw`\bcreate\s+(?:or\s+replace\s+)?(?:constraint\s+)?trigger\s+(\w+)[\s\S]*?\bon\s+${name}`, 'gi'), (m) => `trigger ${m[1]?.toLowerCase()} on ${qualified(m[2] ?? '')}`);
  add(new RegExp(String.raw`\bcreate\s+policy\s+("[^"]*"|\w+)\s+on\s+${name}`, 'gi'), (m) => `policy ${m[1]} on ${qualified(m[2] ?? '')}`);
  // A function's arguments may hold parentheses (numeric(10, 2)); the list ends at the parenthesis that closes it.
  for (const m of masked.matchAll(new RegExp(String.raw`\bcreate\s+(?:or\s+replace\s+)?(function|procedure)\s+${name}\s*\(`, 'gi'))) {
    let depth = 1;
    let end = m.index + m[0].length;
    while (depth > 0 && end < masked.length) {
      if (masked[end] === '(') depth += 1;
      if (masked[end] === ')') depth -= 1;
      end += 1;
    }
    found.push({ at: m.index, object: `${m[1]?.toLowerCase()} ${qualified(m[2] ?? '')}(${argumentTypes(masked.slice(m.index + m[0].length, end - 1))})` });
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.object);
}

/** Whether a migration is one the live database ran (every one, until launch): held to one definition of each object. */
const frozen = (file: string, launchedUpTo: string | null = LAUNCHED_UP_TO) => launchedUpTo === null || file.slice(0, launchedUpTo.length) <= launchedUpTo;

/** Each object defined more than once, with the files that define it; a migration after launch may redefine anything. */
function redefinitions(files: Array<{ file: string; sql: string }>, launchedUpTo: string | null = LAUNCHED_UP_TO): string[] {
  const seen = new Map<string, Definition>();
  const problems: string[] = [];
  for (const { file, sql } of files) {
    for (const object of definitions(sql)) {
      const earlier = seen.get(object);
      if (earlier && frozen(file, launchedUpTo)) problems.push(`${object} is defined in ${earlier.file} and again in ${file}`);
      seen.set(object, { object, file });
    }
  }
  return problems;
}

const migrationFiles = () =>
  readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((file) => ({ file, sql: readFileSync(join(MIGRATIONS_DIR, file), 'utf8') }));

describe('the migrations define each object once', () => {
  it('no table, view, type, index, function, trigger or policy is created twice', () => {
    expect(redefinitions(migrationFiles())).toEqual([]);
  });

  it('the migrations are read: they define the tables and functions the shop uses', () => {
    const objects = migrationFiles().flatMap(({ sql }) => definitions(sql));
    expect(objects).toContain('table public.orders');
    expect(objects).toContain('function public.fulfil_order(uuid)');
    expect(objects).toContain('policy "own orders: read" on public.orders');
    expect(objects.length).toBeGreaterThan(200);
  });

  it('a frozen file creates its functions, never creates or replaces them: where an object is defined is its one definition', () => {
    const replacing = migrationFiles().filter(({ file, sql }) => frozen(file) && /\bcreate\s+or\s+replace\b/i.test(maskSql(sql)));
    expect(replacing.map(({ file }) => file)).toEqual([]);
  });

  it('names the object and both files when a later migration redefines one, and accepts new objects', () => {
    const files = [
      { file: '20261126001000_a.sql', sql: "create function public.f(p_a integer, p_b text default 'x;y') returns int language sql as $$ select 1 $$;" },
      { file: '20261128100000_b.sql', sql: 'create table public.t (id int); create function public.g() returns int language sql as $$ select 2 $$;' },
      { file: '20261128100100_c.sql', sql: 'create or replace function public.f(integer, text) returns int language sql as $$ select 3 $$;' },
      {
        file: '20261128100200_d.sql',
        sql: "-- create table public.t (a comment)\ncreate function public.f(p text) returns int language plpgsql as $$ begin execute 'create table public.t ()'; return 1; end $$;",
      },
    ];
    expect(redefinitions(files)).toEqual(['function public.f(integer, text) is defined in 20261126001000_a.sql and again in 20261128100100_c.sql']);
  });

  it('after launch, later migrations change what is deployed; the frozen files still define each object once', () => {
    const files = [
      { file: '20261126001000_a.sql', sql: 'create function public.f(integer) returns int language sql as $$ select 1 $$;' },
      { file: '20261126001100_b.sql', sql: 'create or replace function public.f(int) returns int language sql as $$ select 2 $$;' },
      { file: '20270101000000_c.sql', sql: 'create or replace function public.f(integer) returns int language sql as $$ select 3 $$;' },
      { file: '20270201000000_d.sql', sql: 'create or replace function public.f(int) returns int language sql as $$ select 4 $$;' },
    ];
    expect(redefinitions(files, '20261126001100')).toEqual(['function public.f(integer) is defined in 20261126001000_a.sql and again in 20261126001100_b.sql']);
  });
});
