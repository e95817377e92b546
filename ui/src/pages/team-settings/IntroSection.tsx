// The user's intro from the onboarding state (PATCH
// /api/teams/:id/onboarding { userIntroText }, at most 4,000 characters):
// injected into the team context of every group-chat message.
import { useOnboarding, usePatchOnboarding } from '../../api/team-settings.ts';
import { TEXT_CAP, TextSetting } from '../../features/teams/index.ts';
import { Section } from './Section.tsx';

export function IntroSection({ teamId }: { teamId: string }) {
  const query = useOnboarding(teamId);
  const save = usePatchOnboarding(teamId);
  const o = query.data;
  return (
    <Section title="Your introduction" id="intro-title" state={query} what="onboarding">
      {o && (
        <>
          <TextSetting
            label="What the agents should know about you"
            what="Introduction"
            saved={o.userIntroText}
            cap={TEXT_CAP}
            rows={5}
            hint="Sent with every group-chat message as part of the team's context."
            saveLabel="Save introduction"
            save={save}
            variables={(text) => ({ userIntroText: text })}
          />
          <p className="text-sm text-muted">
            Onboarding: agents {o.agentsIntroduced ? 'introduced' : 'not introduced yet'}; you{' '}
            {o.userIntroduced ? 'introduced yourself' : 'have not introduced yourself yet (the team chat asks first)'}.
          </p>
        </>
      )}
    </Section>
  );
}
