import { Button, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { landingPathFor } from '../../app/routes';
import { useAccess } from '../../app/useAccess';
import { Icon } from '../../components/icons';

/** Shown in place of a page the user may not open: says so, and leads back to where they belong. */
export function NoAccessPage() {
  const { t } = useTranslation();
  const access = useAccess();
  return (
    <Stack align="center" gap="md" py={80} data-testid="no-access">
      <Icon name="alert" size={64} />
      <Title order={2}>{t('noAccess.title')}</Title>
      <Text c="dimmed" ta="center" maw={460}>
        {t('noAccess.description')}
      </Text>
      <Button component={Link} to={landingPathFor(access)} variant="light">
        {t('noAccess.back')}
      </Button>
    </Stack>
  );
}
