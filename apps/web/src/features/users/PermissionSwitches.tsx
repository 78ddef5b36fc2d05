import { Card, SimpleGrid, Stack, Switch, Text, Title } from '@mantine/core';
import { panelPermissions, type PanelPermission, type PanelPermissionSet } from '@hearth/contract';
import { useTranslation } from 'react-i18next';

interface PermissionSwitchesProps {
  value: PanelPermissionSet;
  disabled?: boolean;
  /**
   * Set for a non-admin editor: whether they may change this flag (they hold it themselves). Other switches
   * are off, and a line says why (docs/security.md § Authorization).
   */
  canChange?: (perm: PanelPermission) => boolean;
  onChange: (next: PanelPermissionSet) => void;
}

/** One switch per panel permission; admin implies all others, which then show as on and locked. */
export function PermissionSwitches({ value, disabled, canChange, onChange }: PermissionSwitchesProps) {
  const { t } = useTranslation();
  const toggle = (perm: PanelPermission, on: boolean) => onChange({ ...value, [perm]: on });
  return (
    <Card withBorder radius="md" padding="lg">
      <Stack>
        <Title order={4}>{t('users.permissions.title')}</Title>
        <Text size="sm" c="dimmed">
          {t('users.permissions.description')}
        </Text>
        {canChange && (
          <Text size="sm" c="dimmed">
            {t('users.permissions.onlyYours')}
          </Text>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }} data-testid="permission-switches">
          {panelPermissions.map((perm) => (
            <Switch
              key={perm}
              label={t(`permissions.${perm}`)}
              checked={value[perm] || (perm !== 'admin' && value.admin)}
              disabled={
                disabled || (perm !== 'admin' && value.admin) || (canChange !== undefined && !canChange(perm))
              }
              onChange={(e) => toggle(perm, e.currentTarget.checked)}
            />
          ))}
        </SimpleGrid>
      </Stack>
    </Card>
  );
}
