// Which routed agents' svc refs stand for the gateway's defaults, kept
// between routing rounds (the setting `model-routing:from-default`): an
// agent on `agents.defaults.model` gets a model of its own pointing at svc
// (`primary`), one that took the defaults' fallbacks gets svc's copies
// of them in its entry (`fallbacks`), and one that took the defaults'
// sub-agent model gets svc's copy of it (`subagents`). The next round follows the defaults
// again for them, and routing off removes what svc wrote, so the agent is
// back on the defaults. A list stored before fallbacks were routed names the
// primaries only.
import { z } from 'zod';
import { readJsonSetting, type SettingsTable } from '../db/settings-table.ts';

export const FROM_DEFAULT_KEY = 'model-routing:from-default';

const ids = z.array(z.string()).catch([]);
const FromDefaultShape = z.object({ primary: ids.default([]), fallbacks: ids.default([]), subagents: ids.default([]) });
export type FromDefault = z.infer<typeof FromDefaultShape>;
export const FromDefaultSchema = z.union([
  FromDefaultShape,
  z.array(z.unknown()).transform((list): FromDefault => ({ primary: list.filter((id): id is string => typeof id === 'string'), fallbacks: [], subagents: [] })),
]);

export const noneFromDefault = (): FromDefault => ({ primary: [], fallbacks: [], subagents: [] });

/** As a plan's input takes them. */
export const fromDefaultSets = (
  v: FromDefault,
): { fromDefault: ReadonlySet<string>; fallbacksFromDefault: ReadonlySet<string>; subagentsFromDefault: ReadonlySet<string> } => ({
  fromDefault: new Set(v.primary),
  fallbacksFromDefault: new Set(v.fallbacks),
  subagentsFromDefault: new Set(v.subagents),
});

export interface FromDefaultStore {
  read(): FromDefault;
  write(value: FromDefault): void;
}

export function createFromDefaultStore(settings: Pick<SettingsTable, 'get' | 'set'>, log: { warn(obj: object, msg: string): void }): FromDefaultStore {
  return {
    read: () =>
      readJsonSetting(settings, FROM_DEFAULT_KEY, FromDefaultSchema, noneFromDefault, log, {
        name: 'model-routing setting',
        fallback: 'treating every routed model as explicit',
      }),
    write: (value) => void settings.set(FROM_DEFAULT_KEY, JSON.stringify(value)),
  };
}
