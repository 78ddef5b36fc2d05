import { AppShell, Container } from '@mantine/core';
import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { PageLoader } from '../../components/PageLoader';
import { useDocumentTitle } from '../useRouteTitle';
import { TopBar } from './TopBar';

/** Frame of the routes without a session: top bar only, no sidebar and no footer. */
export function PublicLayout() {
  useDocumentTitle();
  return (
    <AppShell header={{ height: 56 }} padding="lg">
      <AppShell.Header>
        <TopBar />
      </AppShell.Header>
      <AppShell.Main>
        <Container size="xs" pt="xl">
          <Suspense fallback={<PageLoader />}>
            <Outlet />
          </Suspense>
        </Container>
      </AppShell.Main>
    </AppShell>
  );
}
