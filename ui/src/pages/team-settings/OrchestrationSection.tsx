// The orchestration switch: whether svc runs this team's chat (the setting
// `team-server-orchestrated:<id>`, through GET/PUT /api/teams/:id/orchestration).
// Off, the chat refuses new messages ("team is not server-orchestrated") and
// svc starts no work for the team; the transcript and the board stay.
import { useOrchestration, useSetOrchestration } from '../../api/team-settings.ts';
import { Section } from './Section.tsx';

export function OrchestrationSection({ teamId }: { teamId: string }) {
  const query = useOrchestration(teamId);
  const save = useSetOrchestration(teamId);
  const on = query.data?.serverOrchestrated ?? true;
  return (
    <Section title="Orchestration" id="orchestration-title" state={query}>
      <label className="flex items-start gap-3 text-sm">
        <input
          type="checkbox"
          className="mt-1 size-4"
          checked={on}
          disabled={save.isPending}
          onChange={(e) => save.mutate(e.target.checked)}
        />
        <span>
          <span className="font-medium">svc runs this team&apos;s chat</span>
          <span className="block text-muted">
            svc hands your messages to the agents, passes the floor between them and starts the tasks they put on the board. Turned
            off, the chat takes no new messages; what was said and the board stay.
          </span>
        </span>
      </label>
      <p role="status" className="text-sm text-muted">
        {save.isPending ? 'Saving…' : save.isSuccess ? (on ? 'Orchestration is on.' : 'Orchestration is off.') : ''}
      </p>
      {save.error && (
        <p role="alert" className="text-sm text-danger">
          {save.error.message}
        </p>
      )}
    </Section>
  );
}
