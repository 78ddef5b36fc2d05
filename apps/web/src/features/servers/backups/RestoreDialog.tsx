import type { Backup } from '@hearth/contract/backups';
import { serverNameSchema } from '@hearth/contract/servers';
import { Code, List, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { notifyError, notifySuccess } from '../../../api/notify';
import { DialogActions } from '../../../components/DialogActions';
import { formatDateTime } from '../../../i18n/format';
import { backupsApi } from './api';
import { CloneTarget, NEW_SERVER } from './CloneTarget';

export interface RestoreRequest {
  backup: Backup;
  /** Empty: the whole snapshot. */
  paths: string[];
}

interface Props {
  serverId: string;
  /** The server's node: a clone goes to another server of the same node. */
  nodeId: string;
  request: RestoreRequest;
  admin: boolean;
  onClose: () => void;
  onRestored: () => Promise<void>;
}

/**
 * The confirmation before a restore, saying what the engine does (docs/backups.md § Restore): the server must
 * be stopped, the restored files replace the current ones only once complete. Admins may restore into another
 * stopped server of the node instead, or into a new server they name (a clone; the browser then opens it).
 */
export function RestoreDialog({ serverId, nodeId, request, admin, onClose, onRestored }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [into, setInto] = useState('');
  const [name, setName] = useState('');
  const paths = request.paths.length > 0 ? { paths: request.paths } : {};
  const fresh = into === NEW_SERVER;
  const nameValid = serverNameSchema.safeParse(name.trim()).success;
  const restore = useMutation({
    mutationFn: async () => {
      if (!fresh) {
        await backupsApi.restore(serverId, request.backup.id, {
          ...paths,
          ...(into !== '' ? { intoServer: into } : {}),
        });
        return null;
      }
      return (await backupsApi.clone(serverId, request.backup.id, { name: name.trim(), ...paths })).server;
    },
    onSuccess: async (cloned) => {
      if (cloned === null) {
        notifySuccess(t('servers.backups.restored'));
        await onRestored();
        return;
      }
      notifySuccess(t('servers.backups.cloned', { name: name.trim() }));
      void navigate(`/server/${cloned}`);
    },
    onError: notifyError,
  });
  const whole = request.paths.length === 0;
  return (
    <Modal opened onClose={onClose} title={t('servers.backups.restoreTitle')} centered size={600}>
      <Stack data-testid="backup-restore-dialog">
        <Text>{t('servers.backups.restoreFrom', { when: formatDateTime(request.backup.time) })}</Text>
        {whole ? (
          <Text>{t('servers.backups.restoreWhole')}</Text>
        ) : (
          <>
            <Text>{t('servers.backups.restorePaths')}</Text>
            <List size="sm">
              {request.paths.map((p) => (
                <List.Item key={p}>
                  <Code>{p}</Code>
                </List.Item>
              ))}
            </List>
          </>
        )}
        <Text size="sm" c="dimmed">
          {t('servers.backups.restoreStopped')}
        </Text>
        {admin && <CloneTarget serverId={serverId} nodeId={nodeId} value={into} onChange={setInto} />}
        {fresh && (
          <TextInput
            label={t('servers.backups.cloneNewName')}
            description={t('servers.backups.cloneNewHint')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={name.trim() !== '' && !nameValid ? t('servers.backups.cloneNewNameInvalid') : undefined}
            required
            data-testid="backup-clone-name"
          />
        )}
        <DialogActions
          onCancel={onClose}
          onSave={() => restore.mutate()}
          disabled={fresh && !nameValid}
          saveLabel={t('servers.backups.restore')}
          loading={restore.isPending}
          saveTestId="backup-restore-confirm"
        />
      </Stack>
    </Modal>
  );
}
