import { Button, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { HOME_PATH } from '../../app/routes';

export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Stack align="center" gap="md" py={80}>
      <Text fz={96} fw={800} c="brand" lh={1}>
        404
      </Text>
      <Title order={2}>{t('notFound.title')}</Title>
      <Text c="dimmed" ta="center" maw={420}>
        {t('notFound.description')}
      </Text>
      <Button component={Link} to={HOME_PATH} variant="light">
        {t('notFound.home')}
      </Button>
    </Stack>
  );
}
