// `/`: where a person lands. A machine without an installed, running gateway
// goes to setup; otherwise to the teams. Decided by GET /api/system/status,
// never by anything the browser remembers.
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { api } from '../../api/client.ts';
import { ErrorState, Loading } from '../../components/states.tsx';
import type { SystemStatus } from '../../api/types.ts';

export default function HomePage() {
  const [, navigate] = useLocation();
  const status = useQuery({ queryKey: ['system', 'status'], queryFn: () => api<SystemStatus>('/api/system/status') });
  const ready = status.data ? status.data.gatewayCli.installed && status.data.gateway.running : null;
  useEffect(() => {
    if (ready !== null) navigate(ready ? '/teams' : '/setup', { replace: true });
  }, [ready, navigate]);
  if (status.error) return <ErrorState error={status.error} retry={() => void status.refetch()} />;
  return <Loading what="status" />;
}
