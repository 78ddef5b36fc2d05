import { Anchor, Button, Group, Modal, SimpleGrid, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/icons';
import { changeLocale } from '../../i18n';
import { HELP_TRANSLATE_URL, localeCodes, locales } from '../../i18n/locales';
import { notifyError } from '../../api/notify';
import type { UserSetting } from '@hearth/contract/settings';
import { putUserSetting, userSettingsQuery } from '../../api/queries';
import { useSession } from '../../api/useSession';

/**
 * Logged in, the language is also the user setting `locale` (it picks the language of the panel's
 * e-mails too): a saved choice is applied after login, and a new choice is saved.
 */
function useAccountLocale(): (code: string) => Promise<void> {
  const { token } = useSession();
  const { i18n } = useTranslation();
  const queryClient = useQueryClient();
  const settings = useQuery({ ...userSettingsQuery, enabled: !!token });
  const saved = settings.data?.find((s) => s.key === 'locale')?.value;

  useEffect(() => {
    if (token && saved && localeCodes.includes(saved) && saved !== i18n.language)
      changeLocale(saved).catch(notifyError);
    // Only a newly loaded saved value switches the language (not every change of i18n.language).
  }, [token, saved]);

  return async (code) => {
    await changeLocale(code);
    if (!token) return;
    // Saved in the background: the overlay closes at once; a failed save is reported, the switch stays.
    putUserSetting('locale', code).then(() => {
      queryClient.setQueryData<UserSetting[]>(userSettingsQuery.queryKey, (old = []) => [
        ...old.filter((s) => s.key !== 'locale'),
        { key: 'locale', value: code },
      ]);
    }, notifyError);
  };
}

/** One button per locale (flag + the language's own name) and a link to help translate. */
export function LanguageOverlay({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const select = useAccountLocale();
  const choose = (code: string) => {
    select(code).then(onClose, notifyError);
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t('language.title')} size="xl" centered>
      <SimpleGrid cols={{ base: 1, xs: 2, sm: 3 }} spacing="xs" data-testid="locale-list">
        {locales.map((locale) => (
          <Button
            key={locale.code}
            variant={i18n.language === locale.code ? 'light' : 'subtle'}
            color={i18n.language === locale.code ? undefined : 'gray'}
            justify="flex-start"
            onClick={() => choose(locale.code)}
            leftSection={<span aria-hidden="true">{locale.flag}</span>}
            lang={locale.code.replace('_', '-')}
            data-locale={locale.code}
          >
            {locale.name}
          </Button>
        ))}
      </SimpleGrid>
      <Group justify="center" mt="lg" gap={6}>
        <Icon name="external" size={16} />
        <Text size="sm">
          <Anchor href={HELP_TRANSLATE_URL} target="_blank" rel="noreferrer">
            {t('language.helpTranslate')}
          </Anchor>
        </Text>
      </Group>
    </Modal>
  );
}
