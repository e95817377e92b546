// The team's lead brief (the lead routes: PUT/DELETE
// /api/lead/team-briefs/:teamId): what the team lead knows about this team.
import { useClearLeadBrief, useLeadBrief, useSaveLeadBrief } from '../../api/lead.ts';
import { TextSetting } from '../../features/teams/index.ts';
import { Section } from './Section.tsx';

export function LeadBriefSection({ teamId }: { teamId: string }) {
  const query = useLeadBrief(teamId);
  const save = useSaveLeadBrief(teamId);
  const clear = useClearLeadBrief(teamId);
  const content = query.data?.content ?? null;
  return (
    <Section title="Lead brief" id="brief-title" state={query}>
      {query.data && (
        <TextSetting
          label="Brief for the team lead (markdown)"
          what="Lead brief"
          saved={content ?? ''}
          rows={6}
          hint="The lead reads this with the team's activity summary (its first 900 characters go into the summary)."
          saveLabel="Save brief"
          save={save}
          variables={(text) => text}
          extra={
            content !== null && (
              <button type="button" className="btn" disabled={clear.isPending} onClick={() => clear.mutate()}>
                Clear brief
              </button>
            )
          }
        />
      )}
      {clear.error && (
        <p role="alert" className="text-sm text-danger">
          {clear.error.message}
        </p>
      )}
    </Section>
  );
}
