import { Center, Image } from '@mantine/core';
import { useEffect, useState } from 'react';
import { notifyError } from '../../../api/notify';
import { FullscreenOverlay } from '../../../components/FullscreenOverlay';
import { PageLoader } from '../../../components/PageLoader';
import { filesApi } from './api';

const svgType = (path: string) => (path.toLowerCase().endsWith('.svg') ? 'image/svg+xml' : '');

/** Image files open as a preview, read with the session like any file call. */
export function ImagePreview(props: { serverId: string; path: string; onClose: () => void }) {
  const { serverId, path, onClose } = props;
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let made: string | null = null;
    filesApi.readBlob(serverId, path).then(
      (blob) => {
        // The daemon sends octet-stream; an <img> needs the SVG type to draw one (other formats are sniffed).
        made = URL.createObjectURL(svgType(path) ? new Blob([blob], { type: svgType(path) }) : blob);
        setUrl(made);
      },
      (err: unknown) => {
        notifyError(err);
        onClose();
      },
    );
    return () => {
      if (made) URL.revokeObjectURL(made);
    };
  }, [serverId, path, onClose]);
  return (
    <FullscreenOverlay opened onClose={onClose} title={path} data-testid="file-preview">
      <Center mih="40vh">
        {url ? (
          <Image src={url} alt={path} mah="75vh" fit="contain" data-testid="file-preview-image" />
        ) : (
          <PageLoader />
        )}
      </Center>
    </FullscreenOverlay>
  );
}
