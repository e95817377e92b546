// Approvals (`/approvals`): what agents are waiting on, what was decided, and
// the tools broker's audit log, as three tabs. The tab is in the URL
// (`?tab=pending|history|audit`), so back and forward keep it.
import { useSearchParams } from 'wouter';
import { AuditTab } from './AuditTab.tsx';
import { HistoryTab } from './HistoryTab.tsx';
import { PendingTab } from './PendingTab.tsx';
import { Tabs, type TabDef } from './Tabs.tsx';

const TABS = [
  { id: 'pending', label: 'Pending' },
  { id: 'history', label: 'History' },
  { id: 'audit', label: 'Tool audit' },
] as const satisfies readonly TabDef[];
type TabId = (typeof TABS)[number]['id'];

function tabOf(v: string | null): TabId {
  return TABS.find((t) => t.id === v)?.id ?? 'pending';
}

export default function ApprovalsPage() {
  const [params, setParams] = useSearchParams();
  const tab = tabOf(params.get('tab'));
  const select = (id: string) => setParams(id === 'pending' ? {} : { tab: id });
  return (
    <section className="mx-auto flex max-w-4xl flex-col gap-4 p-4 md:p-6">
      <h1 className="page-title">Approvals</h1>
      <Tabs label="Approvals" tabs={TABS} current={tab} onSelect={select} />
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
        {tab === 'pending' && <PendingTab />}
        {tab === 'history' && <HistoryTab />}
        {tab === 'audit' && <AuditTab toolName={params.get('tool') ?? ''} onToolName={(v) => setParams(v ? { tab: 'audit', tool: v } : { tab: 'audit' }, { replace: true })} />}
      </div>
    </section>
  );
}
