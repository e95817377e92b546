// The placeholder dashboard: health, gateway settings and the live event feed,
// all from the same-origin API (the access cookie rides along when set).
const $ = (id) => document.getElementById(id);

async function getJson(path, init) {
  const res = await fetch(path, { credentials: 'same-origin', ...init });
  return { status: res.status, body: await res.json() };
}

function renderHealth({ status, body }) {
  if (status !== 200) {
    $('health-summary').textContent = `Health unavailable (${status}): ${body.error ?? ''}`;
    return;
  }
  $('version').textContent = '';
  const state = body.ok ? (body.degraded.length ? `running, degraded: ${body.degraded.join(', ')}` : 'healthy') : `fatal: ${body.fatal.join(', ')}`;
  $('health-summary').textContent = state;
  $('health-summary').className = body.ok ? 'ok' : 'bad';
  const rows = body.checks.map((c) => {
    const tr = document.createElement('tr');
    for (const text of [c.id, c.ok ? 'yes' : 'no', c.message]) {
      const td = document.createElement('td');
      td.textContent = text;
      tr.append(td);
    }
    tr.className = c.ok ? '' : 'bad';
    return tr;
  });
  $('checks').querySelector('tbody').replaceChildren(...rows);
}

async function load() {
  const [health, settings, version] = await Promise.all([
    getJson('/api/health'),
    getJson('/api/settings'),
    getJson('/api/system/self-version?local=1'),
  ]);
  renderHealth(health);
  if (settings.status === 200) {
    $('gateway-url').textContent = settings.body.gatewayUrl;
    $('has-token').textContent = settings.body.hasToken ? 'set' : 'not set';
  }
  if (version.status === 200) $('version').textContent = `v${version.body.current}`;
}

$('recheck').addEventListener('click', async () => renderHealth(await getJson('/api/health/recheck', { method: 'POST' })));

const stream = new EventSource(`/api/obs/stream?since=${Number.MAX_SAFE_INTEGER}`);
stream.onopen = () => ($('stream-state').textContent = 'live');
stream.onerror = () => ($('stream-state').textContent = 'reconnecting…');
stream.onmessage = (m) => {
  const row = JSON.parse(m.data);
  const li = document.createElement('li');
  li.textContent = `#${row.seq} ${new Date(row.ts).toLocaleTimeString()} ${row.kind} ${row.agentId ?? ''} ${row.data}`;
  $('events').prepend(li);
  while ($('events').children.length > 200) $('events').lastChild.remove();
};

load().catch((err) => ($('health-summary').textContent = `failed to load: ${err.message}`));
