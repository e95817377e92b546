// Each page is lazy and has its own error boundary: a page that throws shows
// its error and a way back, and the shell and the other pages keep working.
import { Component, Suspense, type ErrorInfo, type ReactNode } from 'react';
import { Loading } from '../components/States.tsx';

interface State {
  error: Error | null;
}

class Boundary extends Component<{ children: ReactNode; resetKey: string }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidUpdate(prev: { resetKey: string }): void {
    if (prev.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: null });
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    // The console is where a person (and the browser tests) look for the stack.
    console.warn('page failed', error, info.componentStack);
  }

  override render(): ReactNode {
    if (this.state.error) {
      return (
        <div role="alert" className="m-6 rounded-lg border border-danger p-4">
          <h2 className="font-semibold text-danger">This page failed</h2>
          <p className="mt-2 text-sm">{this.state.error.message}</p>
          <button type="button" className="btn mt-3" onClick={() => this.setState({ error: null })}>
            Try again
          </button>
        </div>
      );
    }
    return this.props.children;
  }
}

export function PageBoundary({ children, resetKey }: { children: ReactNode; resetKey: string }) {
  return (
    <Boundary resetKey={resetKey}>
      <Suspense fallback={<Loading what="page" />}>{children}</Suspense>
    </Boundary>
  );
}
