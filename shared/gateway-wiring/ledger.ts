// What svc wrote into one gateway's openclaw.json and .env, so that it can
// keep to its own keys and take exactly them back out (the setting off, or
// the dashboard's undo). Kept in svc's settings table, one ledger per config
// file (a person may point svc at another gateway; each keeps its own).
// It holds names and original values of the roster lists, never a secret:
// binding tokens live in the vault under the names recorded here.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { SettingsTable } from '../db/settings-table.ts';
import type { Logger } from '../log.ts';

const Id = z.string().min(1);

export const WiringLedger = z.object({
  version: z.literal(1),
  /** Where the copy of openclaw.json from before svc's first change is (null before that change). */
  backup: z.string().nullable(),
  /** Each roster list svc wrote, with what the agent's entry held before (null: no list). */
  allowBefore: z.array(z.object({ agent: Id, before: z.array(z.string()).nullable() })),
  /** The `mcp.servers` entries svc wrote, and whose they are (a gateway agent id). */
  servers: z.array(z.object({ name: Id, agent: Id })),
  /** The deny patterns svc added to an agent's `tools.deny`, and whether the list was svc's to begin with. */
  deny: z.array(z.object({ agent: Id, patterns: z.array(z.string()), created: z.boolean() })),
  /** Each attached agent's binding: the svc agent it names, the `.env` variable holding it, the token's id. */
  bindings: z.array(z.object({ agent: Id, svcAgentId: Id, teamId: z.string().nullable(), envName: Id, tokenId: Id })),
  /** Objects svc created on the way to its values: removed again once they are empty. */
  created: z.array(z.array(z.string()).min(1)),
  /** svc left variables in `.env` that the running gateway has not been made to read (a write that did not land, kept for its retry). */
  envPending: z.boolean().default(false),
});
export type WiringLedger = z.infer<typeof WiringLedger>;

export const emptyLedger = (): WiringLedger => ({ version: 1, backup: null, allowBefore: [], servers: [], deny: [], bindings: [], created: [], envPending: false });

/** Whether svc has anything of its own in the gateway's files. */
export const ledgerEmpty = (l: WiringLedger): boolean =>
  l.allowBefore.length === 0 && l.servers.length === 0 && l.deny.length === 0 && l.bindings.length === 0 && l.created.length === 0;

const keyOf = (configPath: string): string => `gateway-wiring:ledger:${createHash('sha256').update(configPath).digest('hex').slice(0, 16)}`;

export interface LedgerStore {
  read(configPath: string): WiringLedger;
  write(configPath: string, ledger: WiringLedger): void;
}

export function createLedgerStore(settings: Pick<SettingsTable, 'get' | 'set'>, logger: Pick<Logger, 'error'>): LedgerStore {
  return {
    read(configPath) {
      const raw = settings.get(keyOf(configPath));
      if (raw === null) return emptyLedger();
      try {
        return WiringLedger.parse(JSON.parse(raw));
      } catch (err) {
        // Nothing of svc's can be told apart any more: svc starts a new ledger and keeps the old text for a person to read.
        logger.error({ err, configPath }, 'gateway wiring ledger unreadable; starting a new one (the old one is kept under .unreadable)');
        settings.set(`${keyOf(configPath)}.unreadable`, raw);
        return emptyLedger();
      }
    },
    write: (configPath, ledger) => settings.set(keyOf(configPath), JSON.stringify(ledger)),
  };
}
