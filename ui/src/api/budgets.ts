// Budgets (issue 22; docs/budgets.md): GET /api/governance/budgets, the
// upsert POST and the resume POST, under the key root ['budgets']. A 400's
// `details.fieldErrors` stays on the ApiError (fieldErrorsOf in errors.ts) so
// a form can show each message next to its field.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client.ts';
import type { BudgetRow, BudgetScope, BudgetUpsert, ResumedBudget } from './types.ts';

export const budgetKeys = {
  all: ['budgets'] as const,
  list: ['budgets', 'list'] as const,
};

export function useBudgets() {
  return useQuery({
    queryKey: budgetKeys.list,
    queryFn: ({ signal }) => api<BudgetRow[]>('/api/governance/budgets', { signal }),
    // Spend moves while agents work: keep the bars current while the page is open.
    refetchInterval: 10_000,
  });
}

export function useSaveBudget() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: BudgetUpsert) => api<BudgetRow>('/api/governance/budgets', { method: 'POST', body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: budgetKeys.all }),
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
    onSuccess: () => qc.invalidateQueries({ queryKey: budgetKeys.all }),
  });
}
