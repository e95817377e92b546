// The gateway's config form: default model (from GET /api/system/models),
// fallbacks, provider keys as write-only presence flags (a badge each and a
// password field to replace; a key is read from the form at submit, never
// kept in state or a cache), exec ask and security. PATCH /api/system/gateway-config sends only
// what changed (usePatchGatewayConfig); after a save: "hot reloaded" when
// the server says so, else "restart the gateway to apply" with a Restart
// button.
import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { useGatewayConfig, useModels, usePatchGatewayConfig } from '../../api/system.ts';
import type { GatewayConfigPatch, GatewayConfigResponse, ModelList } from '../../api/types.ts';
import { Empty, ErrorState, Loading } from '../../components/States.tsx';
import { useSystemJobs } from '../../features/jobs/index.ts';
import { FormField as Field } from '../../components/FormField.tsx';
import { parseModelList } from './format.ts';
import { providersFromFlags } from '../../lib/providers.ts';

const EXEC_ASK = ['off', 'on-miss', 'always'];
const EXEC_SECURITY = ['deny', 'allowlist', 'full'];

type Saved = { hotReload: boolean } | null;

function currentModel(cfg: GatewayConfigResponse['config']): { primary: string; fallbacks: string[] } {
  const m = cfg?.agents?.defaults?.model;
  if (typeof m === 'string') return { primary: m, fallbacks: [] };
  return { primary: m?.primary ?? '', fallbacks: m?.fallbacks ?? [] };
}

/** "fakellm/fake-1 (Fake Model)", or the ref alone when the name adds nothing. */
const optionText = (ref: string, name: string | undefined) => (name && name !== ref && !ref.endsWith(`/${name}`) ? `${ref} (${name})` : ref);

const scalar = (v: unknown) => (v === null || v === undefined ? '' : String(v));

function Choice({ label, value, onChange, options, unset }: { label: string; value: string; onChange: (v: string) => void; options: string[]; unset: string }) {
  const all = value !== '' && !options.includes(value) ? [value, ...options] : options;
  return (
    <Field label={label}>
      {({ id }) => (
        <select id={id} className="input" value={value} onChange={(e) => onChange(e.target.value)}>
          <option value="">{unset}</option>
          {all.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

function ConfigForm({ data, models, modelsError, onSaved }: { data: GatewayConfigResponse; models: ModelList | undefined; modelsError: unknown; onSaved: (s: Saved) => void }) {
  // The saved answer is told first; the save stays pending until the config is read again, which re-keys this form.
  const save = usePatchGatewayConfig({ onSaved: (r) => onSaved({ hotReload: r.hotReloadHint === true }) });
  const initial = currentModel(data.config);
  const [model, setModel] = useState(initial.primary);
  const [fallbacks, setFallbacks] = useState(initial.fallbacks.join(', '));
  const [ask, setAsk] = useState(scalar(data.execAsk));
  const [security, setSecurity] = useState(scalar(data.execSecurity));
  /** Why the form was not sent ("nothing changed"); the server's refusal is save.error. */
  const [problem, setProblem] = useState<string | null>(null);
  const error = problem ?? save.error?.message ?? null;
  const providers = providersFromFlags(data.env);
  const refs = models?.models.map((m) => m.ref) ?? [];
  const modelOptions = model !== '' && !refs.includes(model) ? [model, ...refs] : refs;
  const names = new Map(models?.models.map((m) => [m.ref, m.name]));

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const patch: GatewayConfigPatch = {};
    if (model !== initial.primary && model !== '') patch.model = model;
    const fb = parseModelList(fallbacks);
    if (fb.join(',') !== initial.fallbacks.join(',')) patch.fallbacks = fb;
    const exec: NonNullable<GatewayConfigPatch['exec']> = {};
    if (ask !== scalar(data.execAsk) && ask !== '') exec.ask = ask;
    if (security !== scalar(data.execSecurity) && security !== '') exec.security = security;
    if (Object.keys(exec).length > 0) patch.exec = exec;
    const apiKeys = providers.flatMap((p) => {
      const key = String(form.get(`key-${p.id}`) ?? '').trim();
      return key ? [{ provider: p.id, key }] : [];
    });
    if (apiKeys.length > 0) patch.apiKeys = apiKeys;
    if (Object.keys(patch).length === 0) {
      setProblem('Nothing changed: there is nothing to save.');
      return;
    }
    setProblem(null);
    onSaved(null);
    // The refetch after a save re-keys this form: the fields show the saved values and the key fields are empty again.
    save.mutate(patch);
  }

  return (
    <form onSubmit={submit} className="flex max-w-xl flex-col gap-4" aria-label="Gateway configuration">
      <Field label="Default model">
        {({ id, 'aria-describedby': describedBy }) => (
          <select id={id} aria-describedby={describedBy} className="input" value={model} onChange={(e) => setModel(e.target.value)}>
            {model === '' && <option value="">(not set)</option>}
            {modelOptions.map((ref) => (
              <option key={ref} value={ref}>
                {optionText(ref, names.get(ref))}
              </option>
            ))}
          </select>
        )}
      </Field>
      {modelsError !== null && modelsError !== undefined && (
        <p className="text-sm text-danger">Could not load the model list: {modelsError instanceof Error ? modelsError.message : String(modelsError)}</p>
      )}
      <Field label="Fallback models" hint="Tried in order when the default model fails. Separate them with commas.">
        {({ id, 'aria-describedby': describedBy }) => (
          <input id={id} aria-describedby={describedBy} className="input" value={fallbacks} onChange={(e) => setFallbacks(e.target.value)} placeholder="provider/model, provider/model" />
        )}
      </Field>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1">Provider keys</legend>
        <p className="text-xs text-muted">Keys are write-only: svc never shows one. Type a key to set or replace it.</p>
        {providers.map((p) => (
          <div key={p.id} className="flex flex-wrap items-center gap-2">
            <span className="w-28 shrink-0 text-sm">{p.name}</span>
            <span className={`w-16 shrink-0 rounded-full px-2 text-center text-xs font-semibold ${p.hasKey ? 'bg-ok text-surface' : 'bg-surface-2 text-muted'}`}>
              {p.hasKey ? 'set' : 'not set'}
            </span>
            <input
              name={`key-${p.id}`}
              type="password"
              autoComplete="off"
              aria-label={`New ${p.name} key (${p.hasKey ? 'set' : 'not set'})`}
              className="input min-w-40 flex-1"
            />
          </div>
        ))}
      </fieldset>
      <div className="grid gap-3 sm:grid-cols-2">
        <Choice label="Exec approval (ask)" value={ask} onChange={setAsk} options={EXEC_ASK} unset="(not set)" />
        <Choice label="Exec security" value={security} onChange={setSecurity} options={EXEC_SECURITY} unset="(not set)" />
      </div>
      <div>
        <button type="submit" className="btn btn-primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save'}
        </button>
      </div>
      {error && (
        <p role="alert" className="text-danger">
          {error}
        </p>
      )}
    </form>
  );
}

export function ConfigSection() {
  const cfg = useGatewayConfig();
  const models = useModels();
  const jobs = useSystemJobs();
  const [saved, setSaved] = useState<Saved>(null);
  let body;
  if (cfg.isPending) body = <Loading what="gateway config" />;
  else if (cfg.error) body = <ErrorState error={cfg.error} retry={() => void cfg.refetch()} />;
  else if (cfg.data.config === null) {
    body = (
      <Empty title="The gateway has no config yet">
        <Link href="/setup" className="text-accent underline">
          Configure it in setup
        </Link>
        .
      </Empty>
    );
  } else if (models.isPending) body = <Loading what="models" />;
  else {
    body = <ConfigForm key={cfg.dataUpdatedAt} data={cfg.data} models={models.data} modelsError={models.error} onSaved={setSaved} />;
  }
  return (
    <section aria-labelledby="gw-config" className="card">
      <h2 id="gw-config" className="mb-2 font-semibold">
        Configuration
      </h2>
      {body}
      <div role="status" className="mt-3 text-sm">
        {saved?.hotReload === true && <p className="text-ok">Saved. The gateway hot reloaded the change.</p>}
        {saved?.hotReload === false && (
          <div className="flex flex-wrap items-center gap-2">
            <p>Saved. Restart the gateway to apply the change.</p>
            <button type="button" className="btn" onClick={() => jobs.gateway('restart')}>
              Restart the gateway
            </button>
          </div>
        )}
      </div>
    </section>
  );
}
