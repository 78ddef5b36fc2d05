import { Alert, Button, Group, SegmentedControl, Stack, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../../api/notify';
import { FullscreenOverlay } from '../../../components/FullscreenOverlay';
import { EditorCards } from '../../templates/editor/EditorCards';
import { JsonView } from '../../templates/editor/JsonView';
import { useTemplateEditor } from '../../templates/editor/useTemplateEditor';
import { mergeTemplate, saveDefinition, toTemplate, type RawDefinition } from './definition';
import { definitionKey } from './keys';

interface Props {
  serverId: string;
  stored: RawDefinition;
  onClose: () => void;
}

/** Edit the server's definition with the template editor, in editor or JSON mode (SPEC §2 Admin tab). */
export function DefinitionOverlay({ serverId, stored, onClose }: Props) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const editor = useTemplateEditor(toTemplate(stored));
  const save = useMutation({
    mutationFn: async () => {
      const edited = editor.current();
      if (!edited) return false;
      await saveDefinition(serverId, mergeTemplate(stored, edited));
      return true;
    },
    onSuccess: async (saved) => {
      if (!saved) return;
      notifySuccess(t('common.saved'));
      await queryClient.invalidateQueries({ queryKey: definitionKey(serverId) });
      onClose();
    },
  });
  return (
    <FullscreenOverlay
      opened
      onClose={onClose}
      title={<Title order={3}>{t('servers.admin.editDefinition')}</Title>}
    >
      <Stack>
        <Group justify="flex-end">
          <SegmentedControl
            data-testid="editor-mode"
            value={editor.mode}
            onChange={(mode) => editor.switchTo(mode)}
            data={[
              { value: 'editor', label: t('templates.editor.modeEditor') },
              { value: 'json', label: t('templates.editor.modeJson') },
            ]}
          />
        </Group>
        {editor.problem && (
          <Alert color="red" data-testid="json-problem">
            {t(editor.problem.messageKey, { field: editor.problem.field })}
          </Alert>
        )}
        {editor.mode === 'json' ? (
          <JsonView value={editor.jsonText} onChange={editor.changeJson} />
        ) : (
          <EditorCards template={editor.template} onChange={editor.setTemplate} nameLocked nameError={null} />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button loading={save.isPending} onClick={() => save.mutate()}>
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </FullscreenOverlay>
  );
}
