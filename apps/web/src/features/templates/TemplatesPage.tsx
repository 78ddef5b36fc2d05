import { Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { hasScope } from '../../api/scopes';
import { useSession } from '../../api/useSession';
import { PageLoader } from '../../components/PageLoader';
import { templatesQuery } from './api';
import { ImportOverlay } from './ImportOverlay';
import { WarningBadges } from './WarningBadges';

/** Templates list with the import overlay; Import and Add only for those who may edit templates. */
export default function TemplatesPage() {
  const { t } = useTranslation();
  const canEdit = hasScope(useSession().scopes, 'templates.edit');
  const [importing, setImporting] = useState(false);
  const templates = useQuery(templatesQuery);
  if (templates.isPending) return <PageLoader />;
  const rows = templates.data ?? [];
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('templates.title')}</Title>
        {canEdit && (
          <Group>
            <Button variant="default" onClick={() => setImporting(true)}>
              {t('templates.import.open')}
            </Button>
            <Button component={Link} to="/addtemplate">
              {t('templates.add.title')}
            </Button>
          </Group>
        )}
      </Group>
      <Card withBorder radius="md" padding={0}>
        {rows.length === 0 ? (
          <Text p="lg" c="dimmed">
            {t('templates.empty')}
          </Text>
        ) : (
          <Table highlightOnHover>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.id} data-testid={`template-${row.id}`}>
                  <Table.Td>
                    <Text component={Link} to={`/template/${encodeURIComponent(row.id)}`} fw={500} dir="auto">
                      {row.display || row.name}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {row.name} · {row.type}
                    </Text>
                  </Table.Td>
                  <Table.Td>{row.supportedEnvironments.map((e) => e.type).join(', ')}</Table.Td>
                  <Table.Td>
                    <WarningBadges warnings={row.warnings} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Card>
      {canEdit && <ImportOverlay opened={importing} onClose={() => setImporting(false)} />}
    </Stack>
  );
}
