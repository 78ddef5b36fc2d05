import { Alert, Button, Group, Stack, Title } from '@mantine/core';
import { templateSchema, type Template } from '@hearth/contract';
import type { TemplateWarning } from '@hearth/contract/templates-api';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageLoader } from '../../../components/PageLoader';
import { templateQuery } from '../api';
import { WarningBadges } from '../WarningBadges';
import { EditorCards } from './EditorCards';
import { EditorModeSwitch, JsonProblemAlert } from './EditorMode';
import { JsonView } from './JsonView';
import { TemplateActions } from './TemplateActions';
import { useTemplateEditor } from './useTemplateEditor';

/** What a new template starts as: the schema's defaults. */
const blank = (): Template => templateSchema.parse({ run: {} });

/** The template as stored, minus what the API adds around it (id, warnings). */
function editable(stored: Record<string, unknown>): Template {
  const { id: _id, warnings: _warnings, ...rest } = stored;
  return templateSchema.parse(rest);
}

/** /template/{id} and /addtemplate. */
export default function TemplateEditorPage() {
  const { id } = useParams<{ id: string }>();
  const stored = useQuery({ ...templateQuery(id ?? ''), enabled: id !== undefined });
  if (id === undefined) return <TemplateEditor initial={blank()} />;
  if (!stored.data) return <PageLoader />;
  return <TemplateEditor key={id} id={id} initial={editable(stored.data)} warnings={stored.data.warnings} />;
}

interface EditorProps {
  id?: string;
  initial: Template;
  /** What the panel noted when storing it (e.g. converted from 1.x). */
  warnings?: readonly TemplateWarning[];
}

function TemplateEditor({ id, initial, warnings = [] }: EditorProps) {
  const { t } = useTranslation();
  const editor = useTemplateEditor(initial);
  const [nameError, setNameError] = useState<string | null>(null);
  const { template, problem } = editor;
  return (
    <Stack>
      <Group justify="space-between">
        <Group gap="sm">
          <Title order={2}>{template.display || template.name || t('templates.add.title')}</Title>
          {/* Unknown processors are named live below, from the template as edited. */}
          <WarningBadges warnings={warnings.filter((w) => w.code !== 'unknownProcessor')} />
        </Group>
        <EditorModeSwitch mode={editor.mode} onChange={editor.switchTo} />
      </Group>
      {editor.v1Offered && (
        <Alert color="blue" title={t('templates.editor.v1Title')} data-testid="v1-prompt">
          <Group justify="space-between">
            {t('templates.editor.v1Text')}
            <Button size="xs" onClick={editor.convertV1}>
              {t('templates.editor.v1Convert')}
            </Button>
          </Group>
        </Alert>
      )}
      {editor.converted && <Alert color="green">{t('templates.editor.v1Converted')}</Alert>}
      <JsonProblemAlert problem={problem} />
      {editor.mode === 'json' ? (
        <JsonView value={editor.jsonText} onChange={editor.changeJson} />
      ) : (
        <EditorCards
          template={template}
          onChange={(next) => {
            if (next.name !== template.name) setNameError(null);
            editor.setTemplate(next);
          }}
          nameLocked={id !== undefined}
          nameError={nameError}
        />
      )}
      <TemplateActions id={id} current={editor.current} onNameError={setNameError} />
    </Stack>
  );
}
