import { Button, Card, Group, SimpleGrid, Stack, Switch, Text } from '@mantine/core';
import { serverPermissions, type ServerPermission } from '@hearth/contract';
import { useTranslation } from 'react-i18next';
import type { ServerPermissionSet } from '@hearth/contract';

export interface Entry {
  email: string;
  username: string;
  flags: ServerPermissionSet;
  /** Added here and not saved yet: Cancel removes it. */
  isNew: boolean;
  /**
   * Holds a flag the current user lacks on this server: the panel refuses any change to it
   * (docs/security.md § Authorization), so its switches and buttons are off and the reason is shown.
   */
  locked: boolean;
}

interface Props {
  entry: Entry;
  /** Whether the current user may grant this flag (they hold it, or they are an administrator). */
  canGrant: (perm: ServerPermission) => boolean;
  saving: boolean;
  deleting: boolean;
  onChange: (flags: ServerPermissionSet) => void;
  onSave: () => void;
  onCancel: () => void;
  onDelete: () => void;
}

/** One user with access: their permission switches, and Save/Cancel (new) or Update/Delete. */
export function UserEntry(props: Props) {
  const { entry, canGrant, saving, deleting, onChange, onSave, onCancel, onDelete } = props;
  const { t } = useTranslation();
  return (
    <Card withBorder radius="md" padding="md" data-testid="server-user" data-email={entry.email}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text fw={600} truncate>
              {entry.username || entry.email}
            </Text>
            <Text size="xs" c="dimmed" truncate>
              {entry.isNew ? t('servers.users.unsaved') : entry.email}
            </Text>
          </Stack>
          <Group gap="xs" wrap="nowrap">
            {entry.isNew ? (
              <Button variant="default" size="xs" onClick={onCancel}>
                {t('common.cancel')}
              </Button>
            ) : (
              <Button
                variant="light"
                color="red"
                size="xs"
                loading={deleting}
                disabled={entry.locked}
                onClick={onDelete}
              >
                {t('common.delete')}
              </Button>
            )}
            <Button size="xs" loading={saving} disabled={entry.locked} onClick={onSave}>
              {entry.isNew ? t('common.save') : t('servers.users.update')}
            </Button>
          </Group>
        </Group>
        {entry.locked && (
          <Text size="sm" c="dimmed" data-testid="server-user-locked">
            {t('servers.users.locked')}
          </Text>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="xs">
          {serverPermissions.map((perm) => (
            <Switch
              key={perm}
              size="sm"
              label={t(`servers.permissions.${perm}`)}
              checked={entry.flags[perm]}
              disabled={entry.locked || !canGrant(perm)}
              onChange={(e) => onChange({ ...entry.flags, [perm]: e.currentTarget.checked })}
            />
          ))}
        </SimpleGrid>
      </Stack>
    </Card>
  );
}
