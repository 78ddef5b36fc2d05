import type { ImportableTemplate } from '@hearth/contract/templates-api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/errors';
import { notifyError, notifySuccess } from '../../api/notify';
import { templateKeys, templatesApi } from './api';

interface Request {
  row: ImportableTemplate;
  overwrite: boolean;
}

/**
 * Importing from the list: a template not stored yet is imported with `overwrite=false`; a stored one (or one
 * someone stored meanwhile: the 409) waits in `confirming` until the user agrees to replace it.
 */
export function useImport() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState<ImportableTemplate | null>(null);
  const mutation = useMutation({
    mutationFn: ({ row, overwrite }: Request) => templatesApi.import(row.name, row.source, overwrite),
    meta: { silent: true },
    onSuccess: async (result) => {
      setConfirming(null);
      notifySuccess(t('templates.import.done', { name: result.display || result.name }));
      await queryClient.invalidateQueries({ queryKey: templateKeys.all });
    },
    onError: async (err, { row }) => {
      if (!(err instanceof ApiError && err.code === 'ErrDuplicateTemplateName')) return notifyError(err);
      await queryClient.invalidateQueries({ queryKey: templateKeys.importable() });
      setConfirming(row);
    },
  });
  return {
    /** Starts an import: straight away when nothing is stored under the id, else after the confirmation. */
    start: (row: ImportableTemplate) =>
      row.state === 'new' ? mutation.mutate({ row, overwrite: false }) : setConfirming(row),
    confirming,
    confirm: () => confirming && mutation.mutate({ row: confirming, overwrite: true }),
    cancel: () => setConfirming(null),
    /** The row being imported, if any. */
    pending: mutation.isPending ? mutation.variables.row : undefined,
  };
}
