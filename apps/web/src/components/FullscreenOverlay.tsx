import { Modal, type ModalProps } from '@mantine/core';

/**
 * The full-screen overlay: content spans 10 of 12 columns (full width on phones) and the
 * page behind it does not scroll while it is open.
 */
export function FullscreenOverlay(props: Omit<ModalProps, 'size' | 'lockScroll' | 'fullScreen'>) {
  return (
    <Modal
      {...props}
      size="calc(100% * 10 / 12)"
      lockScroll
      centered
      styles={{ content: { maxWidth: '100%' }, ...(typeof props.styles === 'object' ? props.styles : {}) }}
    />
  );
}
