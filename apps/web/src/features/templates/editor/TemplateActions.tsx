import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { Template } from '@hearth/contract';
import { templateIdSchema } from '@hearth/contract/templates-api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { notifySuccess } from '../../../api/notify';
import { hasScope } from '../../../api/scopes';
import { useSession } from '../../../api/useSession';
import { templateKeys, templatesApi } from '../api';

interface Props {
  /** The stored template's id; undefined while adding a new one. */
  id?: string;
  current: () => Template | null;
  onNameError: (message: string | null) => void;
}

/** Save (PUT /api/templates/{id}) and delete with a confirmation dialog; none of it for view-only users. */
export function TemplateActions({ id, current, onNameError }: Props) {
  const { t } = useTranslation();
  const canEdit = hasScope(useSession().scopes, 'templates.edit');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const save = useMutation({
    mutationFn: ({ target, template }: { target: string; template: Template }) =>
      templatesApi.save(target, template),
    onSuccess: async (stored) => {
      notifySuccess(t('templates.editor.saved'));
      await queryClient.invalidateQueries({ queryKey: templateKeys.all });
      if (id === undefined) await navigate(`/template/${encodeURIComponent(stored.id)}`, { replace: true });
    },
  });
  const remove = useMutation({
    mutationFn: () => templatesApi.delete(id ?? ''),
    onSuccess: async () => {
      notifySuccess(t('templates.editor.deleted'));
      await queryClient.invalidateQueries({ queryKey: templateKeys.all });
      await navigate('/template');
    },
  });
  const onSave = () => {
    const template = current();
    if (!template) return;
    const target = id ?? template.name ?? '';
    if (!templateIdSchema.safeParse(target).success) return onNameError(t('templates.general.nameInvalid'));
    onNameError(null);
    save.mutate({ target, template: { ...template, name: target } });
  };
  if (!canEdit) return null;
  return (
    <Group justify="flex-end">
      {id !== undefined && (
        <Button color="red" variant="light" onClick={() => setConfirming(true)}>
          {t('common.delete')}
        </Button>
      )}
      <Button onClick={onSave} loading={save.isPending}>
        {t('common.save')}
      </Button>
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={t('templates.editor.deleteTitle', { name: id })}
      >
        <Stack>
          <Text size="sm">{t('templates.editor.deleteText')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t('common.cancel')}
            </Button>
            <Button color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
              {t('templates.editor.deleteConfirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Group>
  );
}
