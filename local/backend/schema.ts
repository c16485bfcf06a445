/**
 * What the REST layer may touch: tables and functions of the public schema and their columns and types,
 * read from the catalog once. Request identifiers are checked against this, never interpolated.
 */
import type { Database } from './database';

export interface TableInfo {
  columns: Map<string, string>;
}
interface FunctionInfo {
  args: Map<string, string>;
  returnsSet: boolean;
}
export interface SchemaInfo {
  tables: Map<string, TableInfo>;
  functions: Map<string, FunctionInfo>;
}

export async function readSchema(db: Database): Promise<SchemaInfo> {
  const columns = await db.query<{ table_name: string; column_name: string; type: string }>(`
    select c.relname as table_name, a.attname as column_name, format_type(a.atttypid, a.atttypmod) as type
    from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind in ('r', 'v') and a.attnum > 0 and not a.attisdropped`);
  const tables = new Map<string, TableInfo>();
  for (const row of columns.rows) {
    const table = tables.get(row.table_name) ?? { columns: new Map() };
    table.columns.set(row.column_name, row.type);
    tables.set(row.table_name, table);
  }
  const procs = await db.query<{ name: string; arg_names: string[] | null; arg_types: string | null; retset: boolean }>(`
    select p.proname as name, p.proargnames as arg_names, pg_get_function_identity_arguments(p.oid) as arg_types, p.proretset as retset
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public'`);
  const functions = new Map<string, FunctionInfo>();
  for (const proc of procs.rows) {
    const args = new Map<string, string>();
    // identity arguments read like "p_order_id uuid, p_note text"
    for (const part of (proc.arg_types ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      const [name, ...type] = part.split(' ');
      if (name) args.set(name, type.join(' '));
    }
    functions.set(proc.name, { args, returnsSet: proc.retset });
  }
  return { tables, functions };
}

/** Quotes an identifier that has already been checked against the catalog. */
export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
