/** A throwaway PostgreSQL server started by {@link startPostgres}. */
export interface TestPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust auth, loopback only). */
  url: string;
  port: number;
  /** The temporary folder (data, socket, log). */
  root: string;
  dataDir: string;
  bin: string;
}
export function findPostgresBin(env?: NodeJS.ProcessEnv): string | null;
export function startPostgres(): Promise<TestPostgres>;
export function startAgain(server: TestPostgres): void;
export function killPostgres(server: TestPostgres): void;
export function stopPostgres(server: TestPostgres): void;
