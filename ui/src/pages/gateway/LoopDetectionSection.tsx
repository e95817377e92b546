// The gateway page's "Tool-loop detection" section (issue 31 item 7,
// docs/runaway.md): OpenClaw's own `tools.loopDetection`, globally and per
// agent, with a switch for each. Off writes nothing where it can: it removes
// svc's value (an explicit `false` would also turn off OpenClaw's
// post-compaction guard), and says `false` only for an agent that must beat
// a global on. Read only while svc is not connected (the file is shown).
import type { LoopDetectionSwitch, LoopDetectionView } from '../../api/loop-detection.ts';
import { useLoopDetection, useSetLoopDetection } from '../../api/loop-detection.ts';
import { ErrorState, Loading } from '../../components/States.tsx';

type Agent = LoopDetectionView['agents'][number];

/** The switch for one agent: on sets true; off unsets, or says false when the global setting is on. */
const agentSwitch = (view: LoopDetectionView, a: Agent, on: boolean): LoopDetectionSwitch => ({
  agentId: a.agentId,
  enabled: on ? true : view.global.enabled === true ? false : null,
});

const whence = (a: Agent, view: LoopDetectionView): string =>
  a.enabled !== null ? 'set for this agent' : view.global.enabled !== null ? 'from the global setting' : 'OpenClaw\u2019s default';

function Agents({ view, busy, set }: { view: LoopDetectionView; busy: boolean; set: (s: LoopDetectionSwitch) => void }) {
  if (view.agents.length === 0) return <p className="text-sm text-muted">No gateway agents seen yet.</p>;
  return (
    <ul aria-label="Tool-loop detection per agent" className="flex flex-col gap-1.5">
      {view.agents.map((a) => (
        <li key={a.agentId}>
          <label className="flex items-start gap-2 text-sm">
            <input
              type="checkbox"
              role="switch"
              className="mt-0.5"
              checked={a.effective}
              disabled={busy || !view.writable}
              onChange={(e) => set(agentSwitch(view, a, e.target.checked))}
            />
            <span>
              <span className="font-mono">{a.agentId}</span>
              <span className="block text-xs text-muted">
                {a.effective ? 'On' : 'Off'} ({whence(a, view)})
              </span>
            </span>
          </label>
        </li>
      ))}
    </ul>
  );
}

export function LoopDetectionSection() {
  const q = useLoopDetection();
  const set = useSetLoopDetection();
  const busy = set.isPending;

  let body;
  if (q.isPending) body = <Loading what="the gateway's tool-loop detection" />;
  else if (q.error) body = <ErrorState error={q.error} retry={() => void q.refetch()} />;
  else {
    const v = q.data;
    body = (
      <div className="flex flex-col gap-3">
        <p className="text-sm text-muted">
          The gateway warns, then blocks, an agent that keeps repeating a tool call without progress. svc also ends such a turn at its model endpoint, at each
          team&rsquo;s runaway limits; this check is the gateway&rsquo;s own, earlier one.
        </p>
        <label className="flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            role="switch"
            className="mt-0.5"
            checked={v.global.enabled === true}
            disabled={busy || !v.writable}
            onChange={(e) => set.mutate({ enabled: e.target.checked ? true : null })}
          />
          <span>
            For every agent
            <span className="block text-xs text-muted">An agent&rsquo;s own setting below wins over this one.</span>
          </span>
        </label>
        <Agents view={v} busy={busy} set={(s) => set.mutate(s)} />
        {v.source === 'file' && <p className="text-sm text-muted">Read from the gateway&rsquo;s config file: connect svc to the gateway to switch it.</p>}
        {v.source === 'none' && <p className="text-sm text-muted">No gateway yet: set one up or connect one to switch this.</p>}
        {set.error && (
          <p role="alert" className="text-sm text-danger">
            {set.error.message}
          </p>
        )}
      </div>
    );
  }
  return (
    <section aria-labelledby="gw-loop-detection" className="card">
      <h2 id="gw-loop-detection" className="mb-2 font-semibold">
        Tool-loop detection
      </h2>
      {body}
    </section>
  );
}
