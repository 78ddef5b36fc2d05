import { Stack } from '@mantine/core';
import type { ServerTabProps } from '../tabs/types';
import { SftpCard } from '../sftp/SftpCard';
import { FileManager } from './FileManager';

/**
 * Files tab: the file manager for viewServerFiles (its write actions for putServerFiles), and the
 * SFTP information for sftpServer; admins get both.
 */
export default function FilesTab({ server, permissions, admin, live }: ServerTabProps) {
  const canView = admin || permissions.viewServerFiles;
  const canWrite = admin || permissions.putServerFiles;
  return (
    <Stack gap="md" data-testid="files-tab">
      {canView && <FileManager server={server} canWrite={canWrite} live={live} />}
      {(admin || permissions.sftpServer) && <SftpCard server={server} />}
    </Stack>
  );
}
