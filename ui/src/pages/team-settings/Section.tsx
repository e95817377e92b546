// One titled card of the team settings page, with its own loading and error states.
import type { ReactNode } from 'react';
import { ErrorState, Loading } from '../../components/States.tsx';

export interface SectionProps {
  title: string;
  id: string;
  children: ReactNode;
  /** When given, loading and error replace the body. */
  state?: { isPending: boolean; error: Error | null; refetch: () => unknown };
  what?: string;
}

export function Section({ title, id, children, state, what = title.toLowerCase() }: SectionProps) {
  return (
    <section aria-labelledby={id} className="card flex flex-col gap-3">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {state?.isPending ? (
        <Loading what={what} />
      ) : state?.error ? (
        <ErrorState error={state.error} retry={() => void state.refetch()} />
      ) : (
        children
      )}
    </section>
  );
}
