// The gateway page (`/gateway`): the status card with Start / Stop /
// Restart (the same job component as setup), the config form, svc's own
// version with self-update, what svc wires into the gateway, routing, and
// the gateway's own tool-loop detection.
import { useGatewayConfig } from '../../api/system.ts';
import { ConfigSection } from './ConfigSection.tsx';
import { LoopDetectionSection } from './LoopDetectionSection.tsx';
import { ModelRoutingSection } from './ModelRoutingSection.tsx';
import { SelfVersionCard } from './SelfVersionCard.tsx';
import { WiringSection } from './WiringSection.tsx';
import { StatusCard } from './StatusCard.tsx';

export default function GatewayPage() {
  const cfg = useGatewayConfig();
  return (
    <section className="flex flex-col gap-4 p-4 md:p-6">
      <div>
        <h1 className="page-title">Gateway</h1>
        <p className="mt-1 text-sm text-muted">The OpenClaw gateway svc runs your agents on: its process, its config, and svc&rsquo;s own updates.</p>
      </div>
      <div className="grid max-w-5xl gap-4 lg:grid-cols-2">
        <div className="flex flex-col gap-4">
          <StatusCard gatewayVersion={cfg.data?.version ?? null} />
          <SelfVersionCard />
        </div>
        <ConfigSection />
        <div className="lg:col-span-2">
          <WiringSection />
        </div>
        <div className="lg:col-span-2">
          <ModelRoutingSection />
        </div>
        <div className="lg:col-span-2">
          <LoopDetectionSection />
        </div>
      </div>
    </section>
  );
}
