import { useCallback, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '../../../api/notify';
import { configQuery } from '../../../api/queries';
import { joinPath, percentOf } from './file-model';
import { tusUpload } from './tus-upload';

/** The chunk size until the panel's config arrived (its default, `web.uploadChunkBytes`). */
const DEFAULT_CHUNK_BYTES = 50 * 1024 * 1024;

export interface UploadProgress {
  name: string;
  percent: number;
  /** 1-based position in the current batch. */
  current: number;
  total: number;
}

/**
 * Uploads one file at a time into the folder each was dropped on, with progress; `onIdle` runs after
 * the last one (the folder reloads). Files queued while a batch runs join it. Each goes up resumably in
 * chunks (tus-upload.ts), so neither a proxy's body limit nor a dropped connection ends it.
 */
export function useUploads(serverId: string, onIdle: () => void) {
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const queue = useRef<Array<{ file: File; folder: string }>>([]);
  const running = useRef(false);
  const done = useRef(0);
  const { t } = useTranslation();
  const chunkBytes = useQuery(configQuery).data?.uploadChunkBytes ?? DEFAULT_CHUNK_BYTES;

  const pump = useCallback(async () => {
    running.current = true;
    done.current = 0;
    let uploaded = 0;
    for (let next = queue.current.shift(); next; next = queue.current.shift()) {
      const { file, folder } = next;
      const current = done.current + 1;
      const total = done.current + 1 + queue.current.length;
      setProgress({ name: file.name, percent: 0, current, total });
      try {
        await tusUpload({
          serverId,
          path: joinPath(folder, file.name),
          file,
          chunkBytes,
          onProgress: (loaded, size) =>
            setProgress({ name: file.name, percent: percentOf(loaded, size), current, total }),
        });
        uploaded += 1;
      } catch (err) {
        notifyError(err);
      }
      done.current += 1;
    }
    running.current = false;
    setProgress(null);
    if (uploaded > 0) notifySuccess(t('servers.files.uploaded', { count: uploaded }));
    onIdle();
  }, [serverId, onIdle, t, chunkBytes]);

  const enqueue = useCallback(
    (files: File[], folder: string) => {
      if (files.length === 0) return;
      queue.current.push(...files.map((file) => ({ file, folder })));
      if (!running.current) void pump();
    },
    [pump],
  );

  return { progress, enqueue };
}
