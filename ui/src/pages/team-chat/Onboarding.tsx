// The onboarding gate (spec "Onboarding state"): before the first chat, the
// person meets the team (its agents, who leads), then introduces themselves
// (userIntroText, at most 4,000 characters, which svc adds to every message's
// context). Either step can be skipped; the composer unlocks once both flags
// are set.
import { useState } from 'react';
import type { usePatchOnboarding } from '../../api/team-settings.ts';
import type { Onboarding as OnboardingState } from '../../api/types.ts';
import { TEXT_CAP } from '../../features/teams/index.ts';
import { messageOf } from './messages.ts';
import type { Speaker } from './use-roster.ts';

type Patch = ReturnType<typeof usePatchOnboarding>;
/** Spec "Limits": userIntroText. */
const USER_INTRO_MAX = TEXT_CAP;

const fmt = (n: number) => n.toLocaleString('en-US');

function MeetTeam({ speakers, patch }: { speakers: readonly Speaker[]; patch: Patch }) {
  const lead = speakers.find((s) => s.isLead);
  return (
    <section aria-labelledby="meet-title" className="card flex flex-col gap-3">
      <h2 id="meet-title" className="text-lg font-semibold">
        Meet your team
      </h2>
      {speakers.length === 0 ? (
        <p className="text-sm">This team has no agents yet. Add some in the team's settings; you can still go on.</p>
      ) : (
        <>
          <p className="text-sm">
            {lead ? `${lead.name} leads: your messages go to ${lead.name} unless you start one with @name or pick someone.` : 'Your messages go to the agent you pick.'}
          </p>
          <ul className="flex flex-col gap-1" aria-label="Agents on this team">
            {speakers.map((s) => (
              <li key={s.id} className="flex items-center gap-2 text-sm">
                <span className="font-medium">{s.name}</span>
                {s.isLead && <span className="rounded-full bg-surface-2 px-2 text-xs">lead</span>}
                {!s.member && <span className="text-xs text-muted">(the global lead)</span>}
              </li>
            ))}
          </ul>
        </>
      )}
      <div className="flex flex-wrap gap-2">
        <button type="button" className="btn btn-primary" disabled={patch.isPending} onClick={() => patch.mutate({ agentsIntroduced: true })}>
          Continue
        </button>
        <button type="button" className="btn" disabled={patch.isPending} onClick={() => patch.mutate({ agentsIntroduced: true, userIntroduced: true })}>
          Skip the introductions
        </button>
      </div>
    </section>
  );
}

function IntroduceYourself({ initial, patch }: { initial: string; patch: Patch }) {
  const [text, setText] = useState(initial);
  return (
    <form
      aria-labelledby="intro-title"
      className="card flex flex-col gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        patch.mutate({ userIntroText: text, userIntroduced: true });
      }}
    >
      <h2 id="intro-title" className="text-lg font-semibold">
        Introduce yourself
      </h2>
      <label htmlFor="intro-text" className="text-sm">
        About you: what you do, what you want from this team, how you like answers. Your agents see this with every message.
      </label>
      <textarea id="intro-text" className="input min-h-32" maxLength={USER_INTRO_MAX} value={text} onChange={(e) => setText(e.target.value.slice(0, USER_INTRO_MAX))} aria-describedby="intro-count" />
      <p id="intro-count" className={`text-xs ${text.length >= USER_INTRO_MAX ? 'text-warn' : 'text-muted'}`}>
        {fmt(text.length)} / {fmt(USER_INTRO_MAX)} characters
      </p>
      <div className="flex flex-wrap gap-2">
        <button type="submit" className="btn btn-primary" disabled={patch.isPending}>
          Save and start chatting
        </button>
        <button type="button" className="btn" disabled={patch.isPending} onClick={() => patch.mutate({ userIntroduced: true })}>
          Skip for now
        </button>
      </div>
    </form>
  );
}

export function OnboardingGate({ state, speakers, patch }: { state: OnboardingState; speakers: readonly Speaker[]; patch: Patch }) {
  return (
    <div className="mx-auto flex w-full max-w-2xl flex-col gap-3 p-4">
      <p className="text-sm text-muted">Step {state.agentsIntroduced ? 2 : 1} of 2 before your first message</p>
      {state.agentsIntroduced ? <IntroduceYourself initial={state.userIntroText} patch={patch} /> : <MeetTeam speakers={speakers} patch={patch} />}
      {patch.error && (
        <p role="alert" className="text-sm text-danger">
          {messageOf(patch.error)}
        </p>
      )}
    </div>
  );
}
