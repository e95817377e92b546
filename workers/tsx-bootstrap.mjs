// Development and tests only. On Node 20 a worker thread does not inherit
// tsx's loader from `--import tsx`, so a `.ts` worker entry is started
// through this file: register tsx, then load the real entry named in
// workerData.__entry. The production build starts `.js` entries directly.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const mod = await import(workerData.__entry);
export default mod.default;
