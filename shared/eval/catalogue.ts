// The smoke suite's tasks, in report order: both suites (capability,
// regression) and the three kinds (coding, research, coordination).
import { claimRaceTask } from './task-claim-race.ts';
import { dependencyGateTask } from './task-dependency-gate.ts';
import { fanOutTask } from './task-fan-out.ts';
import { handoffTask } from './task-handoff.ts';
import { researchSynthesisTask } from './task-research-synthesis.ts';
import { researchTrailTask } from './task-research-trail.ts';
import { stateMachineTask } from './task-state-machine.ts';
import type { EvalTask } from './types.ts';
import { verificationTask } from './task-verification.ts';

export const EVAL_TASKS: readonly EvalTask[] = Object.freeze([
  claimRaceTask,
  dependencyGateTask,
  stateMachineTask,
  researchTrailTask,
  fanOutTask,
  handoffTask,
  verificationTask,
  researchSynthesisTask,
]);

export const findEvalTask = (id: string): EvalTask | undefined => EVAL_TASKS.find((t) => t.id === id);
