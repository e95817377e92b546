// Durable team rules (spec "Teams": GET/PUT /api/team-rules/:teamId), stored
// as text under `team-rules:<teamId>`. The spec leaves the bodies open; svc's
// shapes (README "Team rules"): PUT `{ text }`, both routes answer
// `{ teamId, text, updatedAt }`. Text over the cap is refused, not cut: a
// silently shortened rule is worse than a clear 400.
import { z } from 'zod';
import type { SettingsTable } from '../db/settings-table.ts';
import { TEAM_KEYS } from '../setting-keys.ts';

export const RULES_MAX = 4000;

export const RULES_MESSAGES = {
  textRequired: 'text (string) is required',
  tooLong: `text must be at most ${RULES_MAX} characters`,
} as const;

export const RulesPutSchema = z.object({
  text: z.string({ error: RULES_MESSAGES.textRequired }).max(RULES_MAX, RULES_MESSAGES.tooLong),
});

export interface TeamRules {
  teamId: string;
  text: string;
  updatedAt: number | null;
}

export interface RulesStore {
  get(teamId: string): TeamRules;
  /** Replaces the text; an empty text removes the entry. */
  put(teamId: string, text: string): TeamRules;
}

export function createRulesStore(settings: SettingsTable): RulesStore {
  return {
    get(teamId) {
      const e = settings.getEntry(TEAM_KEYS.rules(teamId));
      return { teamId, text: e?.value ?? '', updatedAt: e?.updatedAt ?? null };
    },
    put(teamId, text) {
      if (text === '') {
        settings.delete(TEAM_KEYS.rules(teamId));
        return { teamId, text: '', updatedAt: null };
      }
      return { teamId, text, updatedAt: settings.set(TEAM_KEYS.rules(teamId), text) };
    },
  };
}
