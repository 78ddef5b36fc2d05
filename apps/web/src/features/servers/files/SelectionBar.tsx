import { Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';

interface Props {
  canWrite: boolean;
  /** Whether any ticked entry is a file (only files download one by one). */
  anyFile: boolean;
  busy: boolean;
  onDownload: () => void;
  onArchive: () => void;
  onDelete: () => void;
  onMove: () => void;
  onCopy: () => void;
  onPermissions: () => void;
}

/** The bulk actions for the ticked entries; write ones only with putServerFiles (docs/files.md). */
export function SelectionBar(props: Props) {
  const { t } = useTranslation();
  return (
    <Group gap="xs" wrap="wrap" data-testid="file-selection-bar">
      {props.anyFile && (
        <Button size="xs" variant="light" onClick={props.onDownload} data-testid="file-download-selected">
          {t('servers.files.downloadSelected')}
        </Button>
      )}
      {props.canWrite && (
        <>
          <Button
            size="xs"
            variant="light"
            loading={props.busy}
            onClick={props.onArchive}
            data-testid="file-archive-selected"
          >
            {t('servers.files.archiveSelected')}
          </Button>
          <Button size="xs" variant="light" onClick={props.onMove} data-testid="file-move-selected">
            {t('servers.files.move')}
          </Button>
          <Button size="xs" variant="light" onClick={props.onCopy} data-testid="file-copy-selected">
            {t('servers.files.copy')}
          </Button>
          <Button
            size="xs"
            variant="light"
            onClick={props.onPermissions}
            data-testid="file-permissions-selected"
          >
            {t('servers.files.permissions')}
          </Button>
          <Button
            size="xs"
            variant="light"
            color="red"
            onClick={props.onDelete}
            data-testid="file-delete-selected"
          >
            {t('servers.files.deleteSelected')}
          </Button>
        </>
      )}
    </Group>
  );
}
