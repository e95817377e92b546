// The gateway host's streamed jobs as the setup and gateway pages start them:
// install the gateway CLI, install Node 24 for the gateway, start or restart
// the gateway, update svc. Each joins the running job of its kind
// (job-store.ts) and, when it ends, reads every system query again
// (systemKeys.all, api/system.ts). The Node install (issue 30 #6) shares the
// install slot with the gateway CLI's: the server runs one install at a time
// (409), so the page does too; its label tells the two apart.
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { systemStreams } from '../../api/system-streams.ts';
import { systemKeys } from '../../api/system.ts';
import { startJob, type Job } from './job-store.ts';

export const JOB_LABEL = {
  install: 'Install the gateway CLI',
  installNode: 'Install Node 24 for the gateway',
  start: 'Start the gateway',
  restart: 'Restart the gateway',
  selfUpdate: 'Update svc',
} as const;

const refresh = (qc: QueryClient) => () => void qc.invalidateQueries({ queryKey: systemKeys.all });

export function useSystemJobs() {
  const qc = useQueryClient();
  return {
    install: (): Job => startJob('install-gateway', { label: JOB_LABEL.install, run: systemStreams.installGateway, onSettled: refresh(qc) }),
    installNode: (): Job => startJob('install-gateway', { label: JOB_LABEL.installNode, run: systemStreams.installNode, onSettled: refresh(qc) }),
    gateway: (action: 'start' | 'restart'): Job => startJob('gateway', { label: JOB_LABEL[action], run: systemStreams.gateway(action), onSettled: refresh(qc) }),
    selfUpdate: (): Job => startJob('self-update', { label: JOB_LABEL.selfUpdate, run: systemStreams.selfUpdate, onSettled: refresh(qc) }),
  };
}
