import { createJsonFileStore, isSessionStoreError } from '@codeagent/session-store';

export async function quickStart(dir: string): Promise<string> {
  // JSON files here; `createSqliteStore` (`/sqlite`) and `createPostgresStore` (`/postgres`) take the same calls.
  const store = await createJsonFileStore({ dir });
  const session = await store.create({ title: 'Fix the build', meta: { cwd: '/work/app' } });

  // A turn: each completed step is saved at once, so a crash loses at most the step in flight.
  let record = await store.beginTurn(session.id, session.version, { owner: 'cli', prompt: 'fix it' });
  const turnId = record.turn?.id ?? '';
  record = await store.appendStep(session.id, { turnId, seq: 0, step: { messages: ['read package.json'] } });
  record = await store.endTurn(session.id, { turnId, state: 'done', agent: { version: 1, messages: [] } });

  // Two writers never overwrite each other: a write names the version it read.
  try {
    await store.update(session.id, session.version, { title: 'stale rename' });
  } catch (error) {
    if (isSessionStoreError(error, 'conflict')) console.log(error.message);
  }
  await store.close();
  return `${record.title} v${record.version}`;
}
