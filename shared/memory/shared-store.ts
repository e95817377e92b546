// One memory store per database connection. The supervisor builds it for the
// activity summary and every MCP session on the same connection reuses it
// (statements prepared once, the provider decided once); a stdio binary has
// its own connection and so its own store.
import type { Db } from '../db/open.ts';
import { createMemoryStore, type MemoryStore, type MemoryStoreDeps } from './store.ts';

const stores = new WeakMap<Db, MemoryStore>();

export function memoryStoreFor(deps: MemoryStoreDeps): MemoryStore {
  let store = stores.get(deps.db);
  if (!store) {
    store = createMemoryStore(deps);
    stores.set(deps.db, store);
  }
  return store;
}
