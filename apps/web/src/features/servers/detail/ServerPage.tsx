import { Alert, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { ApiError } from '../../../api/errors';
import { isAdmin } from '../../../api/scopes';
import { useSession } from '../../../api/useSession';
import { Icon } from '../../../components/icons';
import { PageLoader } from '../../../components/PageLoader';
import { NoAccessPage } from '../../errors/NoAccessPage';
import NotFoundPage from '../../errors/NotFoundPage';
import type { ServerDetail } from '@hearth/contract/servers';
import { serverQuery } from '../api';
import { serverTabs, visibleTabs, type TabId } from '../tabs';
import { useServerLive } from '../useServerLive';
import { typeViewFor } from '../views/typeViews';
import { ServerHeader } from './ServerHeader';
import { TabBar } from './TabBar';

/**
 * /server/{id}: header, the tab bar, socket banner, the type's view, then the open tab. The bar comes right under
 * the header, above everything that differs between servers or tabs, so it stays at the same place on every tab.
 */
export default function ServerPage() {
  const { id = '' } = useParams<{ id: string }>();
  const detail = useQuery(serverQuery(id));
  // A server the caller may not see answers 403 or 404: say so instead of loading forever (docs/permissions.md).
  if (detail.isError) {
    const denied = detail.error instanceof ApiError && detail.error.status === 403;
    return denied ? <NoAccessPage /> : <NotFoundPage />;
  }
  if (!detail.data) return <PageLoader />;
  return <ServerScreen key={id} detail={detail.data} />;
}

function ServerScreen({ detail }: { detail: Required<ServerDetail> }) {
  const { t } = useTranslation();
  const { scopes } = useSession();
  const admin = isAdmin(scopes);
  const { server, permissions } = detail;
  const live = useServerLive(server.id, server.node.id);
  // The tasks tab also needs a tasks-available flag, off until the server's node reports it.
  const tabs = visibleTabs({ permissions, admin, tasksAvailable: server.features.tasks });
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab');
  const current = tabs.find((tab) => tab.id === asked) ?? tabs[0];
  // A link to a tab the caller's flags do not open says so, rather than showing another tab in its place
  // (a tab the node does not offer, like tasks, still falls back to the first).
  const denied =
    serverTabs.some((tab) => tab.id === asked) &&
    !visibleTabs({ permissions, admin, tasksAvailable: true }).some((tab) => tab.id === asked);
  const select = (tab: TabId) => setParams(tab === 'console' ? {} : { tab }, { replace: true });
  const TypeView = typeViewFor(server.type);
  const Tab = current?.component;
  return (
    <Stack gap="md" data-testid="server-page">
      <ServerHeader server={server} permissions={permissions} admin={admin} live={live} />
      {tabs.length > 0 && current && <TabBar tabs={tabs} value={current.id} onChange={select} />}
      {live.failed && (
        <Alert color="yellow" icon={<Icon name="alert" />} data-testid="socket-banner">
          {t(`errors.${live.failedCode ?? 'ErrSocketFailed'}`)}
        </Alert>
      )}
      <TypeView server={server} />
      <div style={{ minHeight: 320 }} data-testid={`tab-${current?.id ?? 'none'}`}>
        {denied ? (
          <NoAccessPage />
        ) : (
          <Suspense fallback={<PageLoader />}>
            {Tab && <Tab server={server} permissions={permissions} admin={admin} live={live} />}
          </Suspense>
        )}
      </div>
    </Stack>
  );
}
