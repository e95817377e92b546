// Installs what the real-gateway tests need (Node 24 and the pinned openclaw)
// into the test cache, so that CI pays the install before the tests start
// rather than inside a test's time bound. The tests install it themselves
// when it is missing; this only moves the wait.
import { ensureGatewayInstalled, OPENCLAW_VERSION } from './helpers/real-gateway.ts';

const t0 = Date.now();
const install = await ensureGatewayInstalled();
console.log(`openclaw@${OPENCLAW_VERSION} and Node 24 ready in ${install.cache} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
