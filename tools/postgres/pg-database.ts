/**
 * node-postgres behind the small interface the database set-up uses (local/backend/database.ts), and numbers
 * parsed as the embedded backend and PostgREST give them.
 */
import pg from 'pg';
import type { SqlDatabase, SqlSession } from '../../local/backend/database';

// numeric and bigint as JSON numbers, as PostgREST answers them.
pg.types.setTypeParser(pg.types.builtins.NUMERIC, Number);
pg.types.setTypeParser(pg.types.builtins.INT8, Number);

export interface PgDatabase extends SqlDatabase {
  pool: pg.Pool;
  close(): Promise<void>;
}

const session = (client: pg.ClientBase): SqlSession => ({
  exec: (sql) => client.query(sql),
  query: async <T>(sql: string, params?: unknown[]) => {
    const result = await client.query(sql, params);
    return { rows: result.rows as T[] };
  },
});

export async function pgDatabase(config: pg.PoolConfig): Promise<PgDatabase> {
  const pool = new pg.Pool({ max: 60, ...config });
  return {
    pool,
    exec: (sql) => pool.query(sql),
    query: async <T>(sql: string, params?: unknown[]) => ({ rows: (await pool.query(sql, params)).rows as T[] }),
    transaction: async (fn) => {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await fn(session(client));
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback');
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
