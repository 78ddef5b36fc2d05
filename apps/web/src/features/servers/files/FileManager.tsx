import { Box, Card, Checkbox, Group, Loader, Overlay, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { FileEntry, FileSearchHit } from '@hearth/contract';
import type { ServerView } from '@hearth/contract/servers';
import { lazy, Suspense, useCallback, useMemo, useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '../../../api/notify';
import { PageLoader } from '../../../components/PageLoader';
import type { ServerLive } from '../useServerLive';
import { filesApi, fileUrl } from './api';
import { itemsOfDrop } from './dropped-items';
import { CreateDialog, DeleteDialog } from './FileDialogs';
import { PermissionsDialog, RenameDialog, TransferDialog } from './FileOpsDialogs';
import { hitFolder, renameTarget, toOctal, transfers } from './file-ops-model';
import { FileSearch } from './FileSearch';
import { FileList, type RowActions } from './FileList';
import {
  archiveTarget,
  entryPath,
  filterDrop,
  folderUpload,
  isImage,
  isParent,
  joinPath,
  selectionArchive,
  sortEntries,
  tooLargeToEdit,
} from './file-model';
import { FileToolbar } from './FileToolbar';
import { ImagePreview } from './ImagePreview';
import { SelectionBar } from './SelectionBar';
import { useFileShortcuts } from './useFileShortcuts';
import { useFolder } from './useFolder';
import { useUploads } from './useUploads';

const FileEditor = lazy(() => import('./FileEditor'));

/** The drag highlight goes away 100 ms after the pointer leaves (dragleave fires between children). */
const DRAG_RESET_MS = 100;

type Dialog =
  | { kind: 'create'; what: 'file' | 'folder' }
  | { kind: 'delete'; entry: FileEntry }
  | { kind: 'deleteMany'; names: string[] }
  | { kind: 'rename'; entry: FileEntry }
  | { kind: 'transfer'; what: 'move' | 'copy'; names: string[] }
  | { kind: 'permissions'; names: string[]; mode: number }
  | null;

interface Props {
  server: ServerView;
  canWrite: boolean;
  live: ServerLive;
}

/**
 * The file manager; write actions only when `canWrite`. Listing
 * goes over the live socket (`useFolder`); writes, uploads, archives and file contents over HTTP.
 */
export function FileManager({ server, canWrite, live }: Props) {
  const { t } = useTranslation();
  const folder = useFolder(live, server.id);
  const { path, refresh } = folder;
  const [selected, setSelected] = useState(0);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [busy, setBusy] = useState(false);
  const [viewing, setViewing] = useState<{ path: string; image: boolean } | null>(null);
  const [dragging, setDragging] = useState(false);
  const dragTimer = useRef<number | undefined>(undefined);
  const picker = useRef<HTMLInputElement>(null);
  const folderPicker = useRef<HTMLInputElement>(null);
  const entries = useMemo(() => sortEntries(folder.list?.files ?? []), [folder.list]);
  const uploads = useUploads(server.id, refresh);
  // Ticked entry names for the bulk actions; only names still listed count (a refresh may drop some).
  const [ticked, setTicked] = useState<ReadonlySet<string>>(new Set());
  const checkable = entries.filter((e) => !isParent(e));
  const checked = checkable.filter((e) => ticked.has(e.name));
  const go = (next: string) => {
    folder.open(next);
    setSelected(0);
    setTicked(new Set());
  };
  const check = (name: string, on: boolean) =>
    setTicked((now) => {
      const next = new Set(now);
      if (on) next.add(name);
      else next.delete(name);
      return next;
    });
  const run = async (work: () => Promise<string | undefined>) => {
    setBusy(true);
    try {
      const message = await work();
      if (message) notifySuccess(message);
      setDialog(null);
      setTicked(new Set());
      refresh();
    } catch (err) {
      notifyError(err);
    } finally {
      setBusy(false);
    }
  };
  const open = (entry: FileEntry, inFolder = path) => {
    const target = entryPath(inFolder, entry);
    if (!entry.isFile) return go(target);
    if (isImage(entry.name)) return setViewing({ path: target, image: true });
    if (tooLargeToEdit(entry.size))
      return notifications.show({ color: 'red', message: t('servers.files.tooLarge') });
    setViewing({ path: target, image: false });
  };
  const archive = (subfolder: string | null) => {
    const names = entries.filter((e) => !isParent(e)).map((e) => e.name);
    const { destination, sources } = archiveTarget(path, subfolder, names, server.name);
    void run(async () => {
      const made = await filesApi.archive(server.id, destination, sources);
      return t('servers.files.archived', { name: made.path });
    });
  };
  const archiveSelected = () => {
    const { destination, sources } = selectionArchive(
      path,
      checked.map((e) => e.name),
      server.name,
    );
    void run(async () => {
      const made = await filesApi.archive(server.id, destination, sources);
      return t('servers.files.archived', { name: made.path });
    });
  };
  // Files download one by one through the browser (the same links as the rows'); folders go through Archive.
  const downloadSelected = () => {
    for (const entry of checked.filter((e) => e.isFile)) {
      const link = document.createElement('a');
      link.href = fileUrl(server.id, entryPath(path, entry));
      link.download = entry.name;
      link.click();
    }
  };
  const uploadFolder = async (picked: File[]) => {
    // Each file goes up through the ordinary upload path into its own subfolder, made first (mkdir -p).
    const groups = folderUpload(
      path,
      picked.map((file) => ({ file, relativePath: file.webkitRelativePath || file.name })),
    );
    try {
      for (const group of groups)
        if (group.folder !== path) await filesApi.createFolder(server.id, group.folder);
    } catch (err) {
      return notifyError(err);
    }
    for (const group of groups) uploads.enqueue(group.files, group.folder);
  };
  const actions: RowActions = {
    open,
    downloadUrl: (entry) => fileUrl(server.id, entryPath(path, entry)),
    ...(canWrite && {
      archive: (entry) => archive(entry.name),
      extract: (entry) =>
        void run(async () => {
          await filesApi.extract(server.id, entryPath(path, entry), path);
          return t('servers.files.extracted', { name: entry.name });
        }),
      remove: (entry) => setDialog({ kind: 'delete', entry }),
      rename: (entry) => setDialog({ kind: 'rename', entry }),
      move: (entry) => setDialog({ kind: 'transfer', what: 'move', names: [entry.name] }),
      copy: (entry) => setDialog({ kind: 'transfer', what: 'copy', names: [entry.name] }),
      permissions: (entry) =>
        setDialog({
          kind: 'permissions',
          names: [entry.name],
          mode: entry.mode ?? (entry.isFile ? 0o644 : 0o755),
        }),
    }),
  };
  // One call per entry (the daemon's move and copy take one each); the first refusal stops and is shown.
  const transfer = (what: 'move' | 'copy', names: string[], destination: string, overwrite: boolean) =>
    void run(async () => {
      const skipped: string[] = [];
      for (const { from, to } of transfers(path, names, destination)) {
        if (what === 'move') await filesApi.move(server.id, from, to, overwrite);
        else
          skipped.push(...(await filesApi.copy(server.id, from, to, overwrite)).skipped.map((s) => s.name));
      }
      const folderName = destination.trim() === '' ? t('servers.files.root') : destination.trim();
      if (skipped.length > 0)
        notifications.show({
          color: 'yellow',
          message: t('servers.files.copySkipped', { names: skipped.join(', ') }),
        });
      return t(what === 'move' ? 'servers.files.moved' : 'servers.files.copied', {
        names: names.join(', '),
        folder: folderName,
      });
    });
  const openHit = (hit: FileSearchHit) => {
    go(hitFolder(hit.path, hit.isFile));
    if (hit.isFile)
      open(
        { name: hit.name, isFile: true, size: hit.size, modifyTime: hit.modifyTime },
        hitFolder(hit.path, true),
      );
  };
  const upload = (items: ReturnType<typeof itemsOfDrop>) => {
    const { files, folders } = filterDrop(items);
    if (folders > 0)
      notifications.show({ color: 'red', message: t('errors.ErrDirectoryUploadNotSupported') });
    uploads.enqueue(files, path);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (canWrite) upload(itemsOfDrop(event.dataTransfer));
  };
  const onDragOver = (event: DragEvent) => {
    if (!canWrite) return;
    event.preventDefault();
    window.clearTimeout(dragTimer.current);
    setDragging(true);
  };
  const onDragLeave = () => {
    window.clearTimeout(dragTimer.current);
    dragTimer.current = window.setTimeout(() => setDragging(false), DRAG_RESET_MS);
  };
  useFileShortcuts(
    {
      newFile: () => canWrite && setDialog({ kind: 'create', what: 'file' }),
      newFolder: () => canWrite && setDialog({ kind: 'create', what: 'folder' }),
      refresh,
      upload: () => canWrite && picker.current?.click(),
      open: () => entries[selected] && open(entries[selected]),
      move: (delta) => setSelected((s) => Math.min(Math.max(0, s + delta), Math.max(0, entries.length - 1))),
    },
    dialog === null && viewing === null,
  );
  const closeViewer = useCallback(() => setViewing(null), []);
  return (
    <Card withBorder radius="md" padding="md" data-testid="file-manager">
      <Box
        pos="relative"
        onDragOver={onDragOver}
        onDragLeave={onDragLeave}
        onDrop={onDrop}
        data-testid="file-drop"
      >
        {dragging && (
          <Overlay center backgroundOpacity={0.35} blur={1} zIndex={3} data-testid="file-drop-active">
            <Text fw={600} c="white">
              {t('servers.files.dropHere')}
            </Text>
          </Overlay>
        )}
        <Stack gap="sm">
          <FileToolbar
            path={path}
            canWrite={canWrite}
            progress={uploads.progress}
            onNavigate={go}
            onNewFile={() => setDialog({ kind: 'create', what: 'file' })}
            onNewFolder={() => setDialog({ kind: 'create', what: 'folder' })}
            onUpload={() => picker.current?.click()}
            onUploadFolder={() => folderPicker.current?.click()}
            onRefresh={refresh}
            onArchive={() => archive(null)}
          />
          <FileSearch serverId={server.id} folder={path} onOpen={openHit} />
          {folder.loading && folder.list && <Loader size="xs" data-testid="file-loading" />}
          {folder.list ? (
            entries.length === 0 ? (
              <Text c="dimmed">{t('servers.files.empty')}</Text>
            ) : (
              <>
                <Group justify="space-between" mih={30}>
                  <Checkbox
                    size="xs"
                    label={t('servers.files.selectAll')}
                    checked={checked.length > 0 && checked.length === checkable.length}
                    indeterminate={checked.length > 0 && checked.length < checkable.length}
                    onChange={(e) =>
                      setTicked(new Set(e.currentTarget.checked ? checkable.map((x) => x.name) : []))
                    }
                    data-testid="file-select-all"
                  />
                  {checked.length > 0 && (
                    <SelectionBar
                      canWrite={canWrite}
                      anyFile={checked.some((e) => e.isFile)}
                      busy={busy}
                      onDownload={downloadSelected}
                      onArchive={archiveSelected}
                      onDelete={() => setDialog({ kind: 'deleteMany', names: checked.map((e) => e.name) })}
                      onMove={() =>
                        setDialog({ kind: 'transfer', what: 'move', names: checked.map((e) => e.name) })
                      }
                      onCopy={() =>
                        setDialog({ kind: 'transfer', what: 'copy', names: checked.map((e) => e.name) })
                      }
                      onPermissions={() =>
                        setDialog({
                          kind: 'permissions',
                          names: checked.map((e) => e.name),
                          mode: checked[0]?.mode ?? 0o644,
                        })
                      }
                    />
                  )}
                </Group>
                <FileList
                  entries={entries}
                  selected={selected}
                  onSelect={setSelected}
                  actions={actions}
                  checked={ticked}
                  onCheck={check}
                />
                <Text size="xs" c="dimmed" data-testid="file-count">
                  {t('servers.files.entries', { count: entries.filter((e) => !isParent(e)).length })}
                </Text>
              </>
            )
          ) : folder.loading ? (
            <PageLoader />
          ) : null}
        </Stack>
      </Box>
      {canWrite && (
        <input
          ref={folderPicker}
          type="file"
          hidden
          // The browser's folder picker: every file inside, each with its path relative to the folder.
          {...{ webkitdirectory: '' }}
          data-testid="file-folder-picker"
          onChange={(e) => {
            void uploadFolder(Array.from(e.currentTarget.files ?? []));
            e.currentTarget.value = '';
          }}
        />
      )}
      {canWrite && (
        <input
          ref={picker}
          type="file"
          multiple
          hidden
          data-testid="file-picker"
          onChange={(e) => {
            upload(Array.from(e.currentTarget.files ?? []).map((file) => ({ kind: 'file', file })));
            e.currentTarget.value = '';
          }}
        />
      )}
      {dialog?.kind === 'create' && (
        <CreateDialog
          kind={dialog.what}
          busy={busy}
          onClose={() => setDialog(null)}
          onCreate={(name) =>
            void run(async () => {
              const target = entryPath(path, { name });
              if (dialog.what === 'folder') await filesApi.createFolder(server.id, target);
              else {
                await filesApi.createFile(server.id, target);
                // A new file is made to be written: it opens in the editor straight away (issue 16).
                setViewing({ path: target, image: false });
              }
              return t('servers.files.created', { name });
            })
          }
        />
      )}
      {dialog?.kind === 'delete' && (
        <DeleteDialog
          name={dialog.entry.name}
          busy={busy}
          onClose={() => setDialog(null)}
          onConfirm={() =>
            void run(async () => {
              await filesApi.remove(server.id, entryPath(path, dialog.entry));
              return t('servers.files.deleted', { name: dialog.entry.name });
            })
          }
        />
      )}
      {dialog?.kind === 'deleteMany' && (
        <DeleteDialog
          name=""
          names={dialog.names}
          busy={busy}
          onClose={() => setDialog(null)}
          onConfirm={() =>
            void run(async () => {
              for (const name of dialog.names) await filesApi.remove(server.id, joinPath(path, name));
              return t('servers.files.deleted', { name: dialog.names.join(', ') });
            })
          }
        />
      )}
      {dialog?.kind === 'rename' && (
        <RenameDialog
          name={dialog.entry.name}
          busy={busy}
          onClose={() => setDialog(null)}
          onRename={(name) =>
            void run(async () => {
              const target = renameTarget(path, name);
              if (target === null) return undefined;
              await filesApi.move(server.id, entryPath(path, dialog.entry), target);
              return t('servers.files.renamed', { name });
            })
          }
        />
      )}
      {dialog?.kind === 'transfer' && (
        <TransferDialog
          kind={dialog.what}
          names={dialog.names}
          folder={path}
          busy={busy}
          onClose={() => setDialog(null)}
          onTransfer={(destination, overwrite) => transfer(dialog.what, dialog.names, destination, overwrite)}
        />
      )}
      {dialog?.kind === 'permissions' && (
        <PermissionsDialog
          names={dialog.names}
          mode={dialog.mode}
          busy={busy}
          onClose={() => setDialog(null)}
          onApply={(mode) =>
            void run(async () => {
              for (const name of dialog.names) await filesApi.chmod(server.id, joinPath(path, name), mode);
              return t('servers.files.permissionsSaved', {
                names: dialog.names.join(', '),
                mode: toOctal(mode),
              });
            })
          }
        />
      )}
      {viewing?.image && <ImagePreview serverId={server.id} path={viewing.path} onClose={closeViewer} />}
      {viewing && !viewing.image && (
        <Suspense fallback={<PageLoader />}>
          <FileEditor
            serverId={server.id}
            path={viewing.path}
            readOnly={!canWrite}
            onClose={closeViewer}
            onSaved={() => {
              closeViewer();
              refresh();
            }}
          />
        </Suspense>
      )}
    </Card>
  );
}
