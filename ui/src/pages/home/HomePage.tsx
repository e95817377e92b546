// `/`: where a person lands. A machine without an installed, running gateway
// goes to setup; otherwise to the teams. Decided by GET /api/system/status,
// never by anything the browser remembers.
import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { useSystemStatus } from '../../api/system.ts';
import { ErrorState, Loading } from '../../components/States.tsx';

export default function HomePage() {
  const [, navigate] = useLocation();
  const status = useSystemStatus();
  const ready = status.data ? status.data.gatewayCli.installed && status.data.gateway.running : null;
  useEffect(() => {
    if (ready !== null) navigate(ready ? '/teams' : '/setup', { replace: true });
  }, [ready, navigate]);
  if (status.error) return <ErrorState error={status.error} retry={() => void status.refetch()} />;
  return <Loading what="status" />;
}
