import { expect, it } from 'vitest';

it('pins the public export names', async () => {
  expect(Object.keys(await import('../src/index.js')).sort()).toEqual([
    'DEFAULT_MAX_RECORD_BYTES',
    'JSON_STORE_SCHEMA',
    'MAX_EVENTS_PER_APPEND',
    'MAX_META_ENTRIES',
    'MAX_META_VALUE_CHARS',
    'MAX_TITLE_CHARS',
    'SESSION_FILE_FORMAT',
    'SESSION_STORE_ERROR_CODES',
    'SessionStoreError',
    'TURN_STATES',
    'appendTurnSteps',
    'checkId',
    'checkMeta',
    'checkTitle',
    'createJsonFileStore',
    'createStepRecorder',
    'decodeRecord',
    'decodeSessionFile',
    'hasEventLog',
    'isOwnerAlive',
    'isSessionId',
    'isSessionStoreError',
    'processOwner',
    'staleRunningTurn',
  ]);
  expect(Object.keys(await import('../src/sqlite.js')).sort()).toEqual([
    'SCHEMA_VERSION',
    'createSqliteStore',
  ]);
  expect(Object.keys(await import('../src/postgres.js')).sort()).toEqual([
    'EVENTS_CHANNEL',
    'NOTIFY_CHANNEL',
    'SCHEMA_VERSION',
    'createPostgresStore',
    'redactUrl',
  ]);
});

it('the core entry pulls neither pg nor better-sqlite3', async () => {
  const { readFile } = await import('node:fs/promises');
  const { join } = await import('node:path');
  for (const file of [
    'index.ts',
    'json-files.ts',
    'base.ts',
    'codec.ts',
    'operations.ts',
    'turns.ts',
    'types.ts',
    'errors.ts',
  ]) {
    const text = await readFile(join(import.meta.dirname, '../src', file), 'utf8');
    expect(text).not.toMatch(/from '(pg|better-sqlite3)'|from '\.\/(sqlite|postgres|sql)\.js'/);
  }
});
