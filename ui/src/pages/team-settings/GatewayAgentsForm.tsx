// Add an agent from the gateway, or make a new one there and add it: the
// way a fresh install gets a team that can answer (the gateway starts with
// one agent, `main`).
import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { useCreateGatewayAgent, useGatewayAgents } from '../../api/gateway-agents.ts';

export function GatewayAgentsForm({ memberIds, onAdd, busy }: { memberIds: readonly string[]; onAdd: (id: string, name: string) => void; busy: boolean }) {
  const query = useGatewayAgents();
  const create = useCreateGatewayAgent();
  const [pick, setPick] = useState('');
  const [name, setName] = useState('');
  const candidates = (query.data?.agents ?? []).filter((a) => !memberIds.includes(a.id));

  const addPicked = (e: FormEvent) => {
    e.preventDefault();
    const a = candidates.find((c) => c.id === pick);
    if (a) onAdd(a.id, a.name);
    setPick('');
  };
  const createAndAdd = (e: FormEvent) => {
    e.preventDefault();
    const n = name.trim();
    if (!n) return;
    create.mutate(n, {
      onSuccess: (agent) => {
        setName('');
        onAdd(agent.id, agent.name);
      },
    });
  };

  if (query.error || query.data?.reachable === false) {
    return (
      <p className="text-sm text-muted">
        {query.error ? `The gateway's agents cannot be listed: ${query.error.message}.` : 'svc is not connected to a gateway, so its agents cannot be listed.'}{' '}
        <Link href="/gateway" className="text-accent underline">
          Open the Gateway page
        </Link>{' '}
        or{' '}
        <button type="button" className="text-accent underline" onClick={() => void query.refetch()}>
          try again
        </button>
        .
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-2">
      <form className="flex flex-wrap items-end gap-2" onSubmit={addPicked}>
        <label className="flex min-w-48 flex-1 flex-col gap-1 text-sm">
          Agent on your gateway
          <select className="input" value={pick} onChange={(e) => setPick(e.target.value)} disabled={query.isPending}>
            <option value="">{query.isPending ? 'Loading the gateway’s agents…' : candidates.length === 0 ? 'All of them are on this team' : 'Choose an agent'}</option>
            {candidates.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name === a.id ? a.id : `${a.name} (${a.id})`}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="btn" disabled={!pick || busy}>
          Add from gateway
        </button>
      </form>
      <form className="flex flex-wrap items-end gap-2" onSubmit={createAndAdd}>
        <label className="flex min-w-48 flex-1 flex-col gap-1 text-sm">
          New agent on the gateway
          <input className="input" value={name} maxLength={80} onChange={(e) => setName(e.target.value)} placeholder="e.g. Researcher" autoComplete="off" />
        </label>
        <button type="submit" className="btn" disabled={!name.trim() || create.isPending || busy}>
          {create.isPending ? 'Creating…' : 'Create and add'}
        </button>
      </form>
      {create.error && (
        <p role="alert" className="text-sm text-danger">
          {create.error.message}
        </p>
      )}
    </div>
  );
}
