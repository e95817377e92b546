// Budgets (issue 22; docs/budgets.md): GET /api/governance/budgets, the
// upsert POST and the resume POST, under the query key ['budgets']. A 400's
// `details.fieldErrors` stays on the ApiError (fieldErrorsOf) so a form can
// show each message next to its field.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from './client.ts';
import type { BudgetRow, BudgetScope, BudgetUpsert, ResumedBudget } from './types.ts';

export const budgetsKey = ['budgets'] as const;

export function useBudgets() {
  return useQuery({
    queryKey: budgetsKey,
    queryFn: ({ signal }) => api<BudgetRow[]>('/api/governance/budgets', { signal }),
    // Spend moves while agents work: keep the bars current while the page is open.
    refetchInterval: 10_000,
  });
}

export function useSaveBudget() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: BudgetUpsert) => api<BudgetRow>('/api/governance/budgets', { method: 'POST', body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: budgetsKey }),
  });
}

export interface ResumeInput {
  scope: BudgetScope;
  scopeId: string;
  model: string | null;
  graceUsdCents?: number;
}

export function useResumeBudget() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ scope, scopeId, model, graceUsdCents }: ResumeInput) =>
      api<ResumedBudget>(`/api/governance/budgets/${encodeURIComponent(scope)}/${encodeURIComponent(scopeId)}/resume`, {
        method: 'POST',
        body: { ...(graceUsdCents !== undefined ? { graceUsdCents } : {}), ...(model !== null ? { model } : {}) },
      }),
    onSuccess: () => qc.invalidateQueries({ queryKey: budgetsKey }),
  });
}

/** The per-field messages of a 400's flattened zod details (`{ formErrors, fieldErrors }`), else {}. */
export function fieldErrorsOf(err: unknown): Record<string, string[]> {
  if (!(err instanceof ApiError) || err.status !== 400) return {};
  const details = (err.body as { details?: { fieldErrors?: unknown } } | undefined)?.details;
  const fe = details?.fieldErrors;
  if (typeof fe !== 'object' || fe === null) return {};
  const out: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(fe)) {
    if (Array.isArray(v)) out[k] = v.filter((m): m is string => typeof m === 'string');
  }
  return out;
}
