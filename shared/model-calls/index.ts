// One row per model call through svc's endpoint (issue 22).
export { MODEL_CALL_OUTCOMES, ModelCallListQuerySchema, createModelCalls } from './store.ts';
export type { ModelCall, ModelCallEnd, ModelCallListQuery, ModelCallOutcome, ModelCalls, OpenModelCall } from './store.ts';
