import { Group, Stack, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../../api/notify';
import { FullscreenOverlay } from '../../../components/FullscreenOverlay';
import { EditorCards } from '../../templates/editor/EditorCards';
import { EditorModeSwitch, JsonProblemAlert } from '../../templates/editor/EditorMode';
import { JsonView } from '../../templates/editor/JsonView';
import { useTemplateEditor } from '../../templates/editor/useTemplateEditor';
import { mergeTemplate, saveDefinition, toTemplate, type RawDefinition } from './definition';
import { definitionKey } from './keys';
import { DialogActions } from '../../../components/DialogActions';

interface Props {
  serverId: string;
  stored: RawDefinition;
  onClose: () => void;
}

/** Edit the server's definition with the template editor, in editor or JSON mode. */
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
          <EditorModeSwitch mode={editor.mode} onChange={editor.switchTo} />
        </Group>
        <JsonProblemAlert problem={editor.problem} />
        {editor.mode === 'json' ? (
          <JsonView value={editor.jsonText} onChange={editor.changeJson} />
        ) : (
          <EditorCards
            template={editor.template}
            onChange={editor.setTemplate}
            nameLocked
            nameError={null}
            serverId={serverId}
          />
        )}
        <DialogActions onCancel={onClose} onSave={() => save.mutate()} loading={save.isPending} />
      </Stack>
    </FullscreenOverlay>
  );
}
