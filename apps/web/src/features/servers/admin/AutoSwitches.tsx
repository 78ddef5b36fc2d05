import { Card, Group, Stack, Switch, Text, Title } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { autoFlags, loadDefinition, setAutoFlag, type AutoFlag } from './definition';
import { definitionKey } from './keys';

/** autostart, autorestart, autorecover; each change loads, sets one flag, saves and reloads. */
export function AutoSwitches({ serverId }: { serverId: string }) {
  const { t } = useTranslation();
  const definition = useQuery({ queryKey: definitionKey(serverId), queryFn: () => loadDefinition(serverId) });
  const change = useMutation({
    mutationFn: ({ flag, on }: { flag: AutoFlag; on: boolean }) => setAutoFlag(serverId, flag, on),
    onSettled: () => definition.refetch(),
  });
  const loading = definition.isFetching || change.isPending;
  const value = (flag: AutoFlag) =>
    change.isPending && change.variables.flag === flag
      ? change.variables.on
      : definition.data?.run?.[flag] === true;
  return (
    <Card withBorder radius="md" padding="lg" data-testid="auto-switches">
      <Stack>
        <Title order={4}>{t('servers.admin.autoTitle')}</Title>
        {autoFlags.map((flag) => (
          <Group key={flag} justify="space-between" wrap="nowrap">
            <Stack gap={0}>
              <Text fw={500}>{t(`servers.admin.${flag}`)}</Text>
              <Text size="xs" c="dimmed">
                {t(`servers.admin.${flag}Hint`)}
              </Text>
            </Stack>
            <Switch
              aria-label={t(`servers.admin.${flag}`)}
              data-flag={flag}
              checked={value(flag)}
              disabled={loading || !definition.data}
              onChange={(e) => change.mutate({ flag, on: e.currentTarget.checked })}
            />
          </Group>
        ))}
      </Stack>
    </Card>
  );
}
