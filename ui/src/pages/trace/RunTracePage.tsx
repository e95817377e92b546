// `/runs/:runId` (issue 22): one agent run's trace as svc's model endpoint
// saw it: every model call the run made, with tokens, cost and timings.
import { ModelCallsList } from './ModelCallsList.tsx';

export default function RunTracePage({ params }: { params: Record<string, string | undefined> }) {
  const runId = params.runId ?? '';
  return (
    <section className="flex flex-col gap-4 p-4 md:p-6">
      <div>
        <h1 className="page-title">Run trace</h1>
        <p className="mt-1 text-sm break-all text-muted">
          Run <code>{runId}</code>
        </p>
      </div>
      <section aria-labelledby="run-model-calls" className="flex flex-col gap-2">
        <h2 id="run-model-calls" className="font-semibold">
          Model calls
        </h2>
        <ModelCallsList runId={runId} />
      </section>
    </section>
  );
}
