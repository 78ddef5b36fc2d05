import { Card, SimpleGrid, Stack, Text, Textarea, Title, Typography } from '@mantine/core';
import type { Template } from '@hearth/contract';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../../components/TextField';
import { SafeMarkdown } from '../model/markdown';

interface Props {
  template: Template;
  onChange: (template: Template) => void;
  /** The name is the id of a stored template, so it is only editable before the first save. */
  nameLocked: boolean;
  nameError: string | null;
  /**
   * Set when a server's definition is edited: its `name` is then the server's name, not a template id, so the
   * card shows the server's id and labels the name as the server's.
   */
  serverId?: string;
}

/** Name, display name, type and readme (edited as Markdown, shown through the safe renderer). */
export function GeneralCard({ template, onChange, nameLocked, nameError, serverId }: Props) {
  const { t } = useTranslation();
  const set = (patch: Partial<Template>) => onChange({ ...template, ...patch });
  return (
    <Card withBorder radius="md" padding="lg" data-testid="general">
      <Stack gap="sm">
        <Title order={4}>{t('templates.general.title')}</Title>
        <SimpleGrid cols={{ base: 1, md: serverId === undefined ? 3 : 4 }}>
          {serverId !== undefined && (
            <TextField
              label={t('templates.general.serverId')}
              value={serverId}
              readOnly
              onChange={() => undefined}
            />
          )}
          <TextField
            label={t(serverId === undefined ? 'templates.general.name' : 'templates.general.serverName')}
            description={serverId === undefined ? t('templates.general.nameHint') : undefined}
            value={template.name ?? ''}
            disabled={nameLocked}
            error={nameError}
            onChange={(name) => set({ name })}
          />
          <TextField
            label={t('templates.general.display')}
            value={template.display}
            onChange={(display) => set({ display })}
          />
          <TextField
            label={t('templates.general.type')}
            value={template.type}
            onChange={(type) => set({ type })}
          />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <Textarea
            label={t('templates.general.readme')}
            autosize
            minRows={4}
            maxRows={16}
            dir="auto"
            value={template.readme ?? ''}
            onChange={(e) => set({ readme: e.currentTarget.value || undefined })}
          />
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('templates.general.readmePreview')}
            </Text>
            <Typography data-testid="readme-preview">
              {template.readme ? (
                <SafeMarkdown source={template.readme} />
              ) : (
                <Text size="sm" c="dimmed">
                  {t('templates.general.readmeEmpty')}
                </Text>
              )}
            </Typography>
          </Stack>
        </SimpleGrid>
      </Stack>
    </Card>
  );
}
