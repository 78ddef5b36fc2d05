import { Card, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { playerAddress } from '@hearth/contract/server-address';
import { useTranslation } from 'react-i18next';
import type { TypeViewProps } from './typeViews';
import { InfoItem } from './InfoItem';

/** A grass block, drawn so the view needs no image asset. */
function GrassBlock() {
  return (
    <svg width={26} height={26} viewBox="0 0 16 16" aria-hidden="true">
      <rect width="16" height="16" fill="#8b5a2b" />
      <rect width="16" height="5" fill="#5fa83a" />
      <rect x="2" y="5" width="2" height="2" fill="#5fa83a" />
      <rect x="9" y="5" width="3" height="1" fill="#5fa83a" />
      <rect x="5" y="10" width="2" height="2" fill="#6e4521" />
      <rect x="11" y="12" width="2" height="2" fill="#6e4521" />
    </svg>
  );
}

/** Minecraft-type servers: the address players join with, up front. */
export function MinecraftView({ server }: TypeViewProps) {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="md" padding="md" data-testid="type-view-minecraft">
      <Group gap="xl" align="center">
        <Group gap="sm">
          <ThemeIcon size={44} radius="md" variant="light" color="green">
            <GrassBlock />
          </ThemeIcon>
          <Stack gap={0}>
            <Text fw={700}>{t('servers.views.minecraft.title')}</Text>
            <Text size="sm" c="dimmed">
              {t('servers.views.minecraft.hint')}
            </Text>
          </Stack>
        </Group>
        <InfoItem
          label={t('servers.views.minecraft.join')}
          value={playerAddress(server, window.location.hostname)}
          copy
          testId="server-address"
        />
        <InfoItem label={t('servers.list.node')} value={server.node.name} />
        <InfoItem label={t('servers.detail.type')} value={server.type} />
      </Group>
    </Card>
  );
}
