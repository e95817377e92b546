// Team rules: durable text every group-chat message carries (PUT
// /api/team-rules/:teamId, at most 4,000 characters; an empty text clears).
import { useSaveTeamRules, useTeamRules } from '../../api/team-settings.ts';
import { TEXT_CAP, TextSetting } from '../../features/teams/index.ts';
import { Section } from './Section.tsx';

export function RulesSection({ teamId }: { teamId: string }) {
  const query = useTeamRules(teamId);
  const save = useSaveTeamRules(teamId);
  return (
    <Section title="Rules" id="rules-title" state={query}>
      {query.data && (
        <TextSetting
          label="Team rules"
          what="Rules"
          saved={query.data.text}
          cap={TEXT_CAP}
          rows={8}
          hint="Standing instructions every agent of this team gets with each message. Save an empty text to clear them."
          saveLabel="Save rules"
          save={save}
          variables={(text) => text}
        />
      )}
    </Section>
  );
}
