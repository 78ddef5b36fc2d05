import { SimpleGrid, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { OAuthClientsCard } from '../oauth2/OAuthClientsCard';
import { InfoCard } from './InfoCard';
import { PasswordCard } from './PasswordCard';
import { TwoFactorCard } from './TwoFactorCard';

export default function AccountPage() {
  const { t } = useTranslation();
  return (
    <Stack>
      <Title order={2}>{t('account.title')}</Title>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <InfoCard />
        <PasswordCard />
        <TwoFactorCard />
        <OAuthClientsCard scope={{ kind: 'account' }} />
      </SimpleGrid>
    </Stack>
  );
}
