import { ActionIcon, Menu, Radio, Stack, Switch, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/icons';
import { useAppearance } from '../../theme/AppearanceProvider';

/**
 * With more than one theme, a menu holding a dark-mode switch and a radio list of themes;
 * otherwise a single dark-mode toggle button.
 */
export function ThemeMenu() {
  const { t } = useTranslation();
  const { dark, setDark, theme, setTheme, available } = useAppearance();
  const toggleLabel = dark ? t('theme.lightMode') : t('theme.darkMode');

  if (available.length <= 1) {
    return (
      <Tooltip label={toggleLabel}>
        <ActionIcon
          variant="subtle"
          color="gray"
          size="lg"
          aria-label={toggleLabel}
          onClick={() => setDark(!dark)}
        >
          <Icon name={dark ? 'sun' : 'moon'} />
        </ActionIcon>
      </Tooltip>
    );
  }
  return (
    <Menu position="bottom-end" closeOnItemClick={false} width={220}>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" size="lg" aria-label={t('theme.menu')}>
          <Icon name="palette" />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('theme.appearance')}</Menu.Label>
        <Stack px="sm" py="xs">
          <Switch
            label={t('theme.darkMode')}
            checked={dark}
            onChange={(e) => setDark(e.currentTarget.checked)}
          />
        </Stack>
        <Menu.Divider />
        <Menu.Label>{t('theme.themes')}</Menu.Label>
        <Radio.Group value={theme} onChange={setTheme} px="sm" pb="xs">
          <Stack gap="xs">
            {available.map((name) => (
              <Radio key={name} value={name} label={name} />
            ))}
          </Stack>
        </Radio.Group>
      </Menu.Dropdown>
    </Menu>
  );
}
