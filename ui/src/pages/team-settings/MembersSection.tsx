// Members: the team's agents (the assignment view of GET /api/teams), add one
// of the gateway's agents (or make one there: GatewayAgentsForm.tsx), one of
// the known agents (GET /api/agents) or any agent by id (POST
// /api/teams/:id/agents makes the row), remove (the agent is kept), and the
// team's leader (PATCH /api/teams/:id { leaderAgentId }).
import { useState, type FormEvent } from 'react';
import { useAgents } from '../../api/agents.ts';
import { useAssignAgent, usePatchTeam, useTeams, useUnassignAgent } from '../../api/teams.ts';
import type { Team } from '../../api/types.ts';
import { GatewayAgentsForm } from './GatewayAgentsForm.tsx';
import { Section } from './Section.tsx';

export function MembersSection({ team, memberIds }: { team: Team; memberIds: readonly string[] }) {
  const agents = useAgents();
  const teams = useTeams({ includeArchived: true });
  const assign = useAssignAgent();
  const unassign = useUnassignAgent();
  const patch = usePatchTeam();
  const [pick, setPick] = useState('');
  const [byId, setById] = useState('');
  const [byName, setByName] = useState('');
  const [notice, setNotice] = useState('');

  const nameOf = (id: string) => agents.names.get(id) ?? id;
  const teamName = (id: string | null) => teams.data?.teams.find((t) => t.id === id)?.name ?? 'another team';
  const candidates = (agents.data ?? []).filter((a) => a.teamId !== team.id);
  const error = assign.error ?? unassign.error ?? patch.error;

  const fresh = () => {
    assign.reset();
    unassign.reset();
    patch.reset();
    setNotice('');
  };
  const add = (agentId: string, agentName?: string) => {
    fresh();
    assign.mutate(
      { teamId: team.id, agentId, agentName },
      {
        onSuccess: () => {
          setNotice(`Added ${agentName || nameOf(agentId)}.`);
          // Only what named this agent is cleared: the list may already show it
          // (the teams query refreshes first), and a choice made since stays.
          setPick((p) => (p === agentId ? '' : p));
          setById((v) => (v.trim() === agentId ? '' : v));
          setByName((v) => (v.trim() === (agentName ?? '') ? '' : v));
        },
      },
    );
  };
  const addPicked = (e: FormEvent) => {
    e.preventDefault();
    if (pick) add(pick);
  };
  const addById = (e: FormEvent) => {
    e.preventDefault();
    const id = byId.trim();
    if (id) add(id, byName.trim() || undefined);
  };

  return (
    <Section title="Members" id="members-title" state={agents}>
      {memberIds.length === 0 ? (
        <p className="text-sm text-muted">No agents on this team yet. Add one below.</p>
      ) : (
        <ul className="flex flex-col divide-y divide-border" aria-label="Members">
          {memberIds.map((id) => (
            <li key={id} className="flex flex-wrap items-center gap-2 py-2">
              <span className="font-medium">{nameOf(id)}</span>
              {nameOf(id) !== id && <span className="text-xs text-muted">{id}</span>}
              {team.leaderAgentId === id && <span className="rounded-full border border-border px-2 text-xs">Leader</span>}
              <button
                type="button"
                className="btn ml-auto"
                disabled={unassign.isPending}
                onClick={() => {
                  fresh();
                  unassign.mutate({ teamId: team.id, agentId: id }, { onSuccess: () => setNotice(`Removed ${nameOf(id)}; the agent is kept.`) });
                }}
              >
                Remove<span className="sr-only"> {nameOf(id)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}

      <label className="flex flex-col gap-1 text-sm">
        Team leader
        <select
          className="input"
          value={team.leaderAgentId ?? ''}
          disabled={patch.isPending}
          onChange={(e) => {
            fresh();
            patch.mutate({ id: team.id, leaderAgentId: e.target.value || null }, { onSuccess: () => setNotice('Leader saved.') });
          }}
        >
          <option value="">None (the global lead, else the oldest member)</option>
          {memberIds.map((id) => (
            <option key={id} value={id}>
              {nameOf(id)}
            </option>
          ))}
          {team.leaderAgentId && !memberIds.includes(team.leaderAgentId) && (
            <option value={team.leaderAgentId}>{nameOf(team.leaderAgentId)} (not a member)</option>
          )}
        </select>
      </label>

      <GatewayAgentsForm memberIds={memberIds} onAdd={(id, name) => add(id, name)} busy={assign.isPending} />

      <form className="flex flex-wrap items-end gap-2" onSubmit={addPicked}>
        <label className="flex min-w-48 flex-1 flex-col gap-1 text-sm">
          Known agent
          <select className="input" value={pick} onChange={(e) => setPick(e.target.value)}>
            <option value="">{candidates.length === 0 ? 'No other agents yet' : 'Choose an agent'}</option>
            {candidates.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
                {a.teamId ? ` (moves from ${teamName(a.teamId)})` : ''}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="btn" disabled={!pick || assign.isPending}>
          Add agent
        </button>
      </form>

      <form className="flex flex-wrap items-end gap-2" onSubmit={addById}>
        <label className="flex min-w-40 flex-1 flex-col gap-1 text-sm">
          Agent id
          <input className="input" value={byId} onChange={(e) => setById(e.target.value)} autoComplete="off" />
        </label>
        <label className="flex min-w-40 flex-1 flex-col gap-1 text-sm">
          Name (optional)
          <input className="input" value={byName} onChange={(e) => setByName(e.target.value)} autoComplete="off" />
        </label>
        <button type="submit" className="btn" disabled={!byId.trim() || assign.isPending}>
          Add by id
        </button>
      </form>

      <p role="status" aria-live="polite" className="text-sm text-muted empty:hidden">
        {notice}
      </p>
      {error && (
        <p role="alert" className="text-sm text-danger">
          {error.message}
        </p>
      )}
    </Section>
  );
}
