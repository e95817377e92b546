// `svc stop` resolves the PID from the listening port (spec "Command-line
// launcher", stop): /proc on Linux, lsof elsewhere, netstat on Windows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type AddressInfo } from 'node:net';
import {
  manualStopCommand,
  parseLsofPids,
  parseNetstatPids,
  parseProcNetTcp,
  pidFromPort,
  procLookup,
} from '../../shared/launcher/index.ts';

const PROC_NET_TCP = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:4966 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 123456 1 0000000000000000 100 0 0 10 0
   1: 0100007F:4966 0100007F:C350 01 00000000:00000000 00:00000000 00000000  1000        0 222222 1 0000000000000000 20 4 30 10 -1
   2: 00000000:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 333333 1 0000000000000000 100 0 0 10 0
`;
const PROC_NET_TCP6 = `  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000000000000000000001000000:4966 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 444444 1 0000000000000000 100 0 0 10 0
`;

void test('Command-line launcher: /proc/net/tcp parsing keeps LISTEN sockets on the port only', () => {
  // 0x4966 = 18790; 0x1F90 = 8080. The established connection (st 01) is not a listener.
  assert.deepEqual(parseProcNetTcp(PROC_NET_TCP, 18790), ['123456']);
  assert.deepEqual(parseProcNetTcp(PROC_NET_TCP, 8080), ['333333']);
  assert.deepEqual(parseProcNetTcp(PROC_NET_TCP6, 18790), ['444444']);
  assert.deepEqual(parseProcNetTcp(PROC_NET_TCP, 18791), []);
  assert.deepEqual(parseProcNetTcp('', 18790), []);
});

void test('Command-line launcher: the listening socket of a server in this process resolves to process.pid', { skip: process.platform !== 'linux' && 'needs /proc' }, async (t) => {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  t.after(() => srv.close());
  const port = (srv.address() as AddressInfo).port;

  const { inodes, pids } = procLookup(port);
  assert.equal(inodes.length, 1);
  assert.deepEqual(pids, [process.pid]);
  assert.deepEqual(pidFromPort(port), { kind: 'found', pids: [process.pid], method: 'proc' });

  await new Promise<void>((r) => srv.close(() => r()));
  assert.deepEqual(procLookup(port).pids, [], 'a closed port has no owner');
});

void test('Command-line launcher: lsof and netstat output parsing', () => {
  assert.deepEqual(parseLsofPids('4242\n4242\n77\n\n'), [4242, 77]);
  assert.deepEqual(parseLsofPids(''), []);
  const netstat = [
    'Active Connections',
    '  Proto  Local Address          Foreign Address        State           PID',
    '  TCP    0.0.0.0:135            0.0.0.0:0              LISTENING       1000',
    '  TCP    127.0.0.1:18790        0.0.0.0:0              LISTENING       5120',
    '  TCP    127.0.0.1:18790        127.0.0.1:51000        ESTABLISHED     5120',
    '  TCP    127.0.0.1:51000        127.0.0.1:18790        ESTABLISHED     9999',
    '  TCP    [::1]:18790            [::]:0                 ABHÖREN         5121',
    '  TCP    127.0.0.1:187901       0.0.0.0:0              LISTENING       1',
  ].join('\r\n');
  assert.deepEqual(parseNetstatPids(netstat, 18790), [5120, 5121]);
  assert.deepEqual(parseNetstatPids(netstat, 18791), []);
});

void test('Command-line launcher: the manual stop command names the PID when known, else the port', () => {
  assert.equal(manualStopCommand(18790, [1234], 'linux'), 'kill 1234');
  assert.equal(manualStopCommand(18790, null, 'linux'), 'fuser -k 18790/tcp');
  assert.match(manualStopCommand(18790, null, 'darwin'), /lsof -nP -iTCP:18790 -sTCP:LISTEN -t/);
  assert.equal(manualStopCommand(18790, [1234], 'win32'), 'taskkill /PID 1234 /F');
  assert.match(manualStopCommand(18790, null, 'win32'), /netstat -ano/);
});
