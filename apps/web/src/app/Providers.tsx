import { Notifications } from '@mantine/notifications';
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ApiError } from '../api/errors';
import { ErrorDetailsOverlay } from '../api/ErrorDetailsOverlay';
import { notifyError } from '../api/notify';
import { LocaleDirectionProvider, useEndSide } from '../i18n/direction';
import { AppearanceProvider } from '../theme/AppearanceProvider';

export const TOAST_MS = 2500;

/** Queries and mutations report failures through the one toast mapper unless they opt out (meta.silent). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (err, query) => {
        if (!query.meta?.silent) notifyError(err);
      },
    }),
    mutationCache: new MutationCache({
      onError: (err, _vars, _ctx, mutation) => {
        if (!mutation.meta?.silent) notifyError(err);
      },
    }),
    defaultOptions: {
      queries: {
        // Client errors will not fix themselves; retry only network trouble and 5xx once.
        retry: (count, err) =>
          count < 1 && !(err instanceof ApiError && err.status >= 400 && err.status < 500),
        refetchOnWindowFocus: false,
      },
    },
  });
}

/** Toasts in the top corner where the reading direction ends (top-left in Arabic and Hebrew). */
function Toasts() {
  return <Notifications autoClose={TOAST_MS} position={`top-${useEndSide()}`} />;
}

export function Providers({ client, children }: { client: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={client}>
      <LocaleDirectionProvider>
        <AppearanceProvider>
          <Toasts />
          <ErrorDetailsOverlay />
          {children}
        </AppearanceProvider>
      </LocaleDirectionProvider>
    </QueryClientProvider>
  );
}
