import pg from 'pg';

/** The PostgreSQL of the scale-out suites: `TEST_DATABASE_URL` (as the tests) or `BENCH_DATABASE_URL`. */
export const BENCH_DATABASE_URL = process.env.TEST_DATABASE_URL ?? process.env.BENCH_DATABASE_URL;

/**
 * A fresh schema of its own on the bench's database, for a run's instances to share: the
 * environment they are started with, a client on it (search path set), and `drop`, which removes
 * it with everything in it.
 */
export async function benchSchema(url: string, name: string) {
  const schema = `bench_${name}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.query(`set search_path = ${schema}`);
  return {
    schema,
    client: admin,
    env: {
      DATABASE_URL: url,
      DATABASE_SCHEMA: schema,
      SESSION_SECRET: 'bench-session-secret-that-is-long-enough-0000',
    },
    drop: async () => {
      await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
    },
  };
}
