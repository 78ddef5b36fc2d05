import { NavLink, Stack, Tooltip, Divider, Kbd, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { Icon } from '../../components/icons';
import { useEndSide } from '../../i18n/direction';
import { isEntryActive, visibleNavEntries } from '../routes';
import { useAccess } from '../useAccess';
import { useLogout } from './useLogout';

interface SidebarProps {
  collapsed: boolean;
  onToggleCollapsed: () => void;
  onNavigate: () => void;
}

/** Entries come from the route table, filtered by the caller's access. */
export function Sidebar({ collapsed, onToggleCollapsed, onNavigate }: SidebarProps) {
  const { t } = useTranslation();
  const access = useAccess();
  const { pathname } = useLocation();
  const logout = useLogout();
  const side = useEndSide();
  const item = (label: string, icon: Parameters<typeof Icon>[0]['name'], rest: object, hint?: string) => (
    <Tooltip label={label} position={side} disabled={!collapsed} key={label}>
      <NavLink
        label={collapsed ? undefined : label}
        aria-label={label}
        leftSection={<Icon name={icon} />}
        rightSection={!collapsed && hint ? <HintKeys keys={hint} /> : undefined}
        styles={{ root: { borderRadius: 'var(--mantine-radius-md)' } }}
        {...rest}
      />
    </Tooltip>
  );
  return (
    <Stack h="100%" justify="space-between" p="sm" gap="xs">
      <Stack gap={4} component="nav" data-testid="sidebar">
        {visibleNavEntries(access).map((entry) =>
          item(
            t(entry.labelKey),
            entry.icon,
            { component: Link, to: entry.to, active: isEntryActive(entry, pathname), onClick: onNavigate },
            entry.shortcut,
          ),
        )}
      </Stack>
      <Stack gap={4}>
        <Divider />
        {item(t(collapsed ? 'nav.expand' : 'nav.collapse'), collapsed ? 'chevronRight' : 'chevronLeft', {
          onClick: onToggleCollapsed,
          visibleFrom: 'sm',
        })}
        {item(t('nav.logout'), 'logout', { onClick: logout, color: 'red', 'data-testid': 'logout' })}
      </Stack>
    </Stack>
  );
}

function HintKeys({ keys }: { keys: string }) {
  return (
    <Group gap={2} visibleFrom="md" opacity={0.6}>
      {keys.split(' ').map((k, i) => (
        <Kbd key={i} size="xs">
          {k}
        </Kbd>
      ))}
    </Group>
  );
}
