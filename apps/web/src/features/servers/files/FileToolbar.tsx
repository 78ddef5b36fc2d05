import { Anchor, Breadcrumbs, Button, Group, Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { UploadProgress } from './useUploads';

interface Props {
  path: string;
  canWrite: boolean;
  progress: UploadProgress | null;
  onNavigate: (path: string) => void;
  onNewFile: () => void;
  onNewFolder: () => void;
  onUpload: () => void;
  onUploadFolder: () => void;
  onRefresh: () => void;
  onArchive: () => void;
}

/** Breadcrumbs, the folder actions (write ones only with putServerFiles) and the running upload's progress. */
export function FileToolbar(props: Props) {
  const { t } = useTranslation();
  const parts = props.path === '' ? [] : props.path.split('/');
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Breadcrumbs data-testid="file-path">
          <Anchor component="button" onClick={() => props.onNavigate('')}>
            {t('servers.files.root')}
          </Anchor>
          {parts.map((part, i) => (
            <Anchor
              key={i}
              component="button"
              onClick={() => props.onNavigate(parts.slice(0, i + 1).join('/'))}
            >
              {part}
            </Anchor>
          ))}
        </Breadcrumbs>
        <Group gap="xs">
          {props.canWrite && (
            <>
              <Button
                size="xs"
                variant="default"
                onClick={props.onNewFile}
                title="n f"
                data-testid="file-new-file"
              >
                {t('servers.files.newFile')}
              </Button>
              <Button
                size="xs"
                variant="default"
                onClick={props.onNewFolder}
                title="n d"
                data-testid="file-new-folder"
              >
                {t('servers.files.newFolder')}
              </Button>
              <Button
                size="xs"
                variant="default"
                onClick={props.onUpload}
                title="u"
                data-testid="file-upload"
              >
                {t('servers.files.upload')}
              </Button>
              <Button
                size="xs"
                variant="default"
                onClick={props.onUploadFolder}
                data-testid="file-upload-folder"
              >
                {t('servers.files.uploadFolder')}
              </Button>
              <Button size="xs" variant="default" onClick={props.onArchive} data-testid="file-archive-folder">
                {t('servers.files.archiveFolder')}
              </Button>
            </>
          )}
          <Button size="xs" variant="light" onClick={props.onRefresh} title="r" data-testid="file-refresh">
            {t('servers.files.refresh')}
          </Button>
        </Group>
      </Group>
      {props.progress && (
        <Stack
          gap={2}
          data-testid="upload-progress"
          data-name={props.progress.name}
          data-percent={props.progress.percent}
        >
          <Text size="xs">
            {t('servers.files.uploading', {
              name: props.progress.name,
              current: props.progress.current,
              total: props.progress.total,
            })}
          </Text>
          <Progress value={props.progress.percent} size="sm" />
        </Stack>
      )}
    </Stack>
  );
}
