import { AppShell, Group, Text } from '@mantine/core';
import { useDisclosure, useLocalStorage } from '@mantine/hooks';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { PageLoader } from '../../components/PageLoader';
import { useDocumentTitle } from '../useRouteTitle';
import { Sidebar } from './Sidebar';
import { TopBar } from './TopBar';
import { useNavShortcuts } from './useShortcuts';
import { useSessionRefresh } from './useSessionRefresh';

/** The logged-in frame: top bar, collapsible sidebar, page, footer. */
export function Shell() {
  const { t } = useTranslation();
  const [mobileOpen, mobile] = useDisclosure(false);
  const [collapsed, setCollapsed] = useLocalStorage({ key: 'sidebarCollapsed', defaultValue: false });
  useDocumentTitle();
  useNavShortcuts();
  useSessionRefresh();
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: collapsed ? 72 : 248, breakpoint: 'sm', collapsed: { mobile: !mobileOpen } }}
      footer={{ height: 36 }}
      padding="lg"
    >
      <AppShell.Header>
        <TopBar nav={{ opened: mobileOpen, toggle: mobile.toggle }} />
      </AppShell.Header>
      <AppShell.Navbar>
        <Sidebar
          collapsed={collapsed}
          onToggleCollapsed={() => setCollapsed((c) => !c)}
          onNavigate={mobile.close}
        />
      </AppShell.Navbar>
      <AppShell.Main>
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
      <AppShell.Footer data-testid="footer">
        <Group h="100%" px="md" justify="flex-end">
          <Text size="xs" c="dimmed">
            {t('app.footer')}
          </Text>
        </Group>
      </AppShell.Footer>
    </AppShell>
  );
}
