// Per-team onboarding state (spec "Onboarding state"), stored as JSON under
// `team-onboarding:<teamId>`. A wrong-typed field in a patch is ignored and
// the current value kept; userIntroText is sliced to 4000 characters.
import { z } from 'zod';
import type { Logger } from '../log.ts';
import type { SettingsTable } from '../db/settings-table.ts';
import { TEAM_KEYS } from '../setting-keys.ts';

export const USER_INTRO_MAX = 4000;

/** The stored state: every field present (a missing one reads as its default). */
export const OnboardingSchema = z.object({
  agentsIntroduced: z.boolean(),
  userIntroduced: z.boolean(),
  userIntroText: z.string().transform((s) => s.slice(0, USER_INTRO_MAX)),
});
export type Onboarding = z.output<typeof OnboardingSchema>;

export const ONBOARDING_DEFAULTS: Readonly<Onboarding> = Object.freeze({
  agentsIntroduced: false,
  userIntroduced: false,
  userIntroText: '',
});

/** A patch field: optional, and a wrong-typed one reads as absent. */
const ignoredIfWrong = <T extends z.ZodType>(field: T) => field.optional().catch(undefined);
const state = OnboardingSchema.shape;

/** The state's fields, each optional and a wrong-typed one read as absent. */
export const OnboardingPatchSchema = z.object({
  agentsIntroduced: ignoredIfWrong(state.agentsIntroduced),
  userIntroduced: ignoredIfWrong(state.userIntroduced),
  userIntroText: ignoredIfWrong(state.userIntroText),
});
export type OnboardingPatch = z.infer<typeof OnboardingPatchSchema>;

export interface OnboardingStore {
  get(teamId: string): Onboarding;
  merge(teamId: string, patch: OnboardingPatch): Onboarding;
}

export function createOnboardingStore(settings: SettingsTable, logger: Logger): OnboardingStore {
  const get = (teamId: string): Onboarding => {
    const raw = settings.get(TEAM_KEYS.onboarding(teamId));
    if (raw === null) return { ...ONBOARDING_DEFAULTS };
    let stored: unknown;
    try {
      stored = JSON.parse(raw);
    } catch (err) {
      // A hand-edited or torn value: defaults are the safe reading (the composer stays locked).
      logger.warn({ err, teamId }, 'onboarding state is not JSON; using defaults');
      return { ...ONBOARDING_DEFAULTS };
    }
    const p = OnboardingPatchSchema.catch({}).parse(stored);
    return {
      agentsIntroduced: p.agentsIntroduced ?? ONBOARDING_DEFAULTS.agentsIntroduced,
      userIntroduced: p.userIntroduced ?? ONBOARDING_DEFAULTS.userIntroduced,
      userIntroText: p.userIntroText ?? ONBOARDING_DEFAULTS.userIntroText,
    };
  };
  return {
    get,
    merge(teamId, patch) {
      const cur = get(teamId);
      const next: Onboarding = {
        agentsIntroduced: patch.agentsIntroduced ?? cur.agentsIntroduced,
        userIntroduced: patch.userIntroduced ?? cur.userIntroduced,
        userIntroText: patch.userIntroText ?? cur.userIntroText,
      };
      settings.set(TEAM_KEYS.onboarding(teamId), JSON.stringify(next));
      return next;
    },
  };
}
