// The app: react-query for server state (interval polling pauses in hidden
// tabs, react-query's default), the shell, and the routes. When an /api call
// meets the access gate, the access page replaces everything.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Suspense } from 'react';
import { Route, Switch, useLocation } from 'wouter';
import { gateStore } from '../api/access-gate.ts';
import { ApiError } from '../api/errors.ts';
import { Loading } from '../components/States.tsx';
import { useStore } from '../lib/store.ts';
import { PageBoundary } from './PageBoundary.tsx';
import { AccessPage, NotFoundPage, ROUTES } from './routes.tsx';
import { Shell } from './Shell.tsx';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 5_000,
      // A 4xx will not get better by asking again.
      retry: (count, err) => !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 2,
    },
  },
});

function Routes() {
  const [location] = useLocation();
  return (
    <PageBoundary resetKey={location}>
      <Switch>
        {ROUTES.map(({ path, page: Page }) => (
          <Route key={path} path={path}>
            {(params) => <Page params={params} />}
          </Route>
        ))}
        <Route>
          <NotFoundPage params={{}} />
        </Route>
      </Switch>
    </PageBoundary>
  );
}

export function App() {
  const { locked } = useStore(gateStore);
  return (
    <QueryClientProvider client={queryClient}>
      {locked ? (
        <Suspense fallback={<Loading what="page" />}>
          <AccessPage />
        </Suspense>
      ) : (
        <Shell>
          <Routes />
        </Shell>
      )}
    </QueryClientProvider>
  );
}
