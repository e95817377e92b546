// The secrets vault's public surface: the vault itself, runtime-key
// resolution, and master-key decoding (for a clear boot-time error).
export { createVault, resolveRuntimeKey } from './vault.ts';
export type {
  RuntimeKeyLookups,
  RuntimeKeySource,
  SentinelState,
  Vault,
  VaultLookup,
  VaultOptions,
  VaultPaths,
} from './vault.ts';
export { decodeMasterKey, MASTER_KEY_BYTES } from './master-key.ts';
export type { VaultPerms } from './master-key.ts';
