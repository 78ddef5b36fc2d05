import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { NodeDeployment } from '@hearth/contract/nodes';
import { useDisclosure } from '@mantine/hooks';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { nodesApi } from './api';

/**
 * Issues a fresh node secret and certificate after a warning: the daemon running with the old ones is refused
 * by the panel (the pin moved; SFTP logins fail) until its node.json carries the new ones.
 */
export function RotateCredentialButton(props: {
  nodeId: string;
  onRotated: (deployment: NodeDeployment) => void;
}) {
  const { t } = useTranslation();
  const [opened, modal] = useDisclosure(false);
  const rotate = useMutation({
    mutationFn: () => nodesApi.rotate(props.nodeId),
    onSuccess: (deployment) => {
      modal.close();
      props.onRotated(deployment);
    },
  });
  return (
    <>
      <Button variant="light" color="orange" onClick={modal.open}>
        {t('nodes.deploy.rotate')}
      </Button>
      <Modal opened={opened} onClose={modal.close} title={t('nodes.deploy.rotate')} centered size={600}>
        <Stack>
          <Text>{t('nodes.deploy.rotateWarningTls')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={modal.close}>
              {t('common.cancel')}
            </Button>
            <Button color="orange" loading={rotate.isPending} onClick={() => rotate.mutate()}>
              {t('nodes.deploy.rotateConfirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
