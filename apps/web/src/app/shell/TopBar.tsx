import { ActionIcon, Burger, Group, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { configQuery } from '../../api/queries';
import { Icon } from '../../components/icons';
import { LanguageOverlay } from './LanguageOverlay';
import { ThemeMenu } from './ThemeMenu';

interface TopBarProps {
  /** Present when a sidebar exists: the burger toggles it on small screens. */
  nav?: { opened: boolean; toggle: () => void };
}

export function TopBar({ nav }: TopBarProps) {
  const { t } = useTranslation();
  const brand = useQuery(configQuery).data?.branding.name || t('app.name');
  const [languageOpen, language] = useDisclosure(false);
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group gap="sm" wrap="nowrap">
        {nav && (
          <Burger
            opened={nav.opened}
            onClick={nav.toggle}
            hiddenFrom="sm"
            size="sm"
            aria-label={t('nav.toggle')}
          />
        )}
        <UnstyledButton component={Link} to="/" aria-label={brand}>
          <Group gap={8} wrap="nowrap">
            <Text c="brand" lh={0}>
              <Icon name="flame" size={26} strokeWidth={2} />
            </Text>
            <Text fw={700} size="lg" className="hearth-brand" data-testid="brand">
              {brand}
            </Text>
          </Group>
        </UnstyledButton>
      </Group>
      <Group gap={4} wrap="nowrap">
        <ThemeMenu />
        <Tooltip label={t('language.title')}>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={t('language.title')}
            onClick={language.open}
          >
            <Icon name="language" />
          </ActionIcon>
        </Tooltip>
      </Group>
      <LanguageOverlay opened={languageOpen} onClose={language.close} />
    </Group>
  );
}
