// Settings and health (`/settings`): the gateway connection (URL and a
// write-only token), the boot probe's health checks with Recheck, and the
// recent errors behind the nav's error count.
import { useSettings } from '../../api/settings.ts';
import { ErrorState, Loading } from '../../components/States.tsx';
import { GatewaySettings } from './GatewaySettings.tsx';
import { HealthChecks } from './HealthChecks.tsx';
import { RecentErrors } from './RecentErrors.tsx';

export default function SettingsPage() {
  const settings = useSettings();
  return (
    <section className="mx-auto flex max-w-3xl flex-col gap-6 p-4 md:p-6">
      <h1 className="page-title">Settings and health</h1>
      <div className="card flex flex-col gap-3">
        <h2 className="text-lg font-semibold">Gateway connection</h2>
        {settings.isPending ? (
          <Loading what="settings" />
        ) : settings.error ? (
          <ErrorState error={settings.error} retry={() => void settings.refetch()} />
        ) : (
          <GatewaySettings view={settings.data} />
        )}
      </div>
      <HealthChecks />
      <RecentErrors />
    </section>
  );
}
