// Team rules: durable text every group-chat message carries (PUT
// /api/team-rules/:teamId, at most 4,000 characters; an empty text clears).
import { TEXT_CAP } from '../../features/teams/text-limit.ts';
import { TextSetting } from '../../features/teams/TextSetting.tsx';
import { Section } from './Section.tsx';
import { useRules } from './useTeamSettings.ts';

export function RulesSection({ teamId }: { teamId: string }) {
  const { query, save } = useRules(teamId);
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
          onSave={(text) => save.mutateAsync(text)}
        />
      )}
    </Section>
  );
}
