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

/**
 * The logged-in frame: top bar, collapsible sidebar, page, footer. The footer ends the page in the flow (pushed
 * to the bottom of a short page) instead of being fixed to the window: fixed, it covered the last 36 px of every
 * screen, the console's command line at 390×844 among them (docs/web.md § Server page).
 */
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
      <AppShell.Main style={{ display: 'flex', flexDirection: 'column' }}>
        <div style={{ flex: 1, minWidth: 0 }}>
          <Suspense fallback={<PageLoader />}>
            <Outlet />
          </Suspense>
        </div>
        <Group component="footer" justify="flex-end" pt="lg" data-testid="footer">
          <Text size="xs" c="dimmed">
            {t('app.footer')}
          </Text>
        </Group>
      </AppShell.Main>
    </AppShell>
  );
}
