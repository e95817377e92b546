// Setup's first step: the Node the gateway will run with (GET
// /api/system/status `node`: the first `node` on the gateway CLI's PATH,
// which is svc's own Node 24 once svc installed one). When it does not fit
// and npm has a Node 24 for this machine, one click installs it under svc's
// state directory with a live log (POST /api/system/install-node, issue 30
// #6); otherwise the step says what to install by hand.
import type { SystemStatus } from '../../api/types.ts';
import { JobProgress, type Job } from '../../features/jobs/index.ts';

type NodeInfo = SystemStatus['node'];

export const nodeFits = (node: NodeInfo) => node.sufficient && node.meetsGatewayRequirement !== false;

function NodeText({ node }: { node: NodeInfo }) {
  const where = `Node ${node.version} (${node.path})`;
  const byHand = (
    <>
      install a Node that fits (from nodejs.org, or <code>nvm install 24</code>), put it first on PATH, and restart svc.
    </>
  );
  if (!nodeFits(node)) {
    const why = node.sufficient ? `${where} runs svc, but the gateway needs Node ${node.gatewayRequirement}.` : `${where} is too old for the gateway: it needs Node ${node.gatewayRequirement}.`;
    return node.managedSpec !== null ? (
      <p>
        {why} svc can install Node 24 for the gateway into its own folder (npm package <code>{node.managedSpec}</code>); nothing else on this
        machine changes, and svc keeps running on its own Node. Or {byHand}
      </p>
    ) : (
      <p>
        {why} npm has no Node 24 package for this machine, so svc cannot install one: {byHand}
      </p>
    );
  }
  if (node.meetsGatewayRequirement === null) {
    return (
      <p>
        {where}. svc cannot tell whether it fits the gateway&rsquo;s requirement ({node.gatewayRequirement}); check it before you install.
      </p>
    );
  }
  return (
    <p>
      {where}
      {node.managed ? ', installed by svc for the gateway,' : ''} fits the gateway ({node.gatewayRequirement}).
    </p>
  );
}

export function NodeStep({ node, job, installing, onInstall }: { node: NodeInfo; job: Job | undefined; installing: boolean; onInstall: () => void }) {
  const offer = !nodeFits(node) && node.managedSpec !== null;
  return (
    <>
      <NodeText node={node} />
      {offer && (
        <div>
          <button type="button" className="btn btn-primary" disabled={installing} onClick={onInstall}>
            Install Node 24 for the gateway
          </button>
        </div>
      )}
      <JobProgress job={job} />
    </>
  );
}
