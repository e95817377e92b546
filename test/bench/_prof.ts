// ad-hoc: latency phase only, svc under --cpu-prof (not committed)
import { startPaths } from './model-endpoint-setup.ts';
import { measureLatency, latencyReport } from './model-endpoint-latency.ts';
process.env.NODE_OPTIONS = `--cpu-prof --cpu-prof-dir=/tmp/prof`;
const paths = await startPaths();
delete process.env.NODE_OPTIONS;
console.log('svc pid', paths.svcProc.proc.pid, 'bare pid', paths.bareProc.pid);
try {
  const lat = await measureLatency(paths);
  for (const l of latencyReport(lat)) console.log(l);
} finally {
  await paths.stop();
}
