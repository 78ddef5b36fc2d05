/**
 * Rename, move/copy and permissions dialogs of the file manager (docs/files.md § Web file manager). Each only
 * collects the answer; FileManager sends the calls (one per entry for several) and reports the outcome.
 */
import { Button, Checkbox, Group, Modal, Stack, Table, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { parseOctal, permissionBit, symbolic, toOctal, WHAT, WHO } from './file-ops-model';

function Actions(props: {
  busy: boolean;
  valid: boolean;
  label: string;
  onClose: () => void;
  onOk: () => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={props.onClose}>
        {t('common.cancel')}
      </Button>
      <Button disabled={!props.valid} loading={props.busy} onClick={props.onOk} data-testid={props.testId}>
        {props.label}
      </Button>
    </Group>
  );
}

/** A new name beside the old one; Rename stays disabled while it is blank, unchanged or holds a slash. */
export function RenameDialog(props: {
  name: string;
  busy: boolean;
  onRename: (name: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState(props.name);
  const trimmed = name.trim();
  const valid = trimmed !== '' && trimmed !== props.name && !/[\\/]/.test(trimmed) && trimmed !== '..';
  const submit = () => valid && props.onRename(trimmed);
  return (
    <Modal
      opened
      onClose={props.onClose}
      title={t('servers.files.renameTitle', { name: props.name })}
      data-testid="file-rename-dialog"
    >
      <Stack>
        <TextInput
          label={t('servers.files.newName')}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          onKeyDown={(e) => e.key === 'Enter' && submit()}
          data-autofocus
          data-testid="file-rename-name"
        />
        <Actions
          busy={props.busy}
          valid={valid}
          label={t('servers.files.rename')}
          onClose={props.onClose}
          onOk={submit}
          testId="file-rename-submit"
        />
      </Stack>
    </Modal>
  );
}

/** Move or copy the named entries into a folder given by its path from the server folder. */
export function TransferDialog(props: {
  kind: 'move' | 'copy';
  names: string[];
  folder: string;
  busy: boolean;
  onTransfer: (destination: string, overwrite: boolean) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [destination, setDestination] = useState(props.folder);
  const [overwrite, setOverwrite] = useState(false);
  const submit = () => props.onTransfer(destination, overwrite);
  const names = props.names.join(', ');
  return (
    <Modal
      opened
      onClose={props.onClose}
      size={600}
      title={t(props.kind === 'move' ? 'servers.files.moveTitle' : 'servers.files.copyTitle', { names })}
      data-testid="file-transfer-dialog"
    >
      <Stack>
        <TextInput
          label={t('servers.files.destination')}
          description={t('servers.files.destinationHint')}
          value={destination}
          onChange={(e) => setDestination(e.currentTarget.value)}
          onKeyDown={(e) => e.key === 'Enter' && submit()}
          data-autofocus
          data-testid="file-transfer-destination"
        />
        <Checkbox
          label={t('servers.files.replaceExisting')}
          checked={overwrite}
          onChange={(e) => setOverwrite(e.currentTarget.checked)}
          data-testid="file-transfer-overwrite"
        />
        <Actions
          busy={props.busy}
          valid
          label={t(props.kind === 'move' ? 'servers.files.move' : 'servers.files.copy')}
          onClose={props.onClose}
          onOk={submit}
          testId="file-transfer-submit"
        />
      </Stack>
    </Modal>
  );
}

/** Nine read/write/execute boxes and the same mode as three octal digits, kept in step both ways. */
export function PermissionsDialog(props: {
  names: string[];
  mode: number;
  busy: boolean;
  onApply: (mode: number) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [mode, setMode] = useState(props.mode & 0o777);
  const [octal, setOctal] = useState(toOctal(props.mode));
  const valid = parseOctal(octal) !== null;
  const toggle = (bit: number, on: boolean) => {
    const next = on ? mode | bit : mode & ~bit;
    setMode(next);
    setOctal(toOctal(next));
  };
  return (
    <Modal
      opened
      onClose={props.onClose}
      title={t('servers.files.permissionsTitle', { names: props.names.join(', ') })}
      data-testid="file-permissions-dialog"
    >
      <Stack>
        <Table withRowBorders={false} verticalSpacing={4}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th />
              {WHAT.map((what) => (
                <Table.Th key={what} ta="center">
                  {t(`servers.files.${what}`)}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {WHO.map((who) => (
              <Table.Tr key={who}>
                <Table.Th scope="row">{t(`servers.files.${who}`)}</Table.Th>
                {WHAT.map((what) => {
                  const bit = permissionBit(who, what);
                  return (
                    <Table.Td key={what}>
                      <Group justify="center">
                        <Checkbox
                          checked={(mode & bit) !== 0}
                          onChange={(e) => toggle(bit, e.currentTarget.checked)}
                          aria-label={`${t(`servers.files.${who}`)}: ${t(`servers.files.${what}`)}`}
                          data-testid={`file-perm-${who}-${what}`}
                        />
                      </Group>
                    </Table.Td>
                  );
                })}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Group align="flex-end">
          <TextInput
            label={t('servers.files.octal')}
            value={octal}
            w={120}
            maxLength={4}
            error={valid ? undefined : t('servers.files.octalInvalid')}
            onChange={(e) => {
              const text = e.currentTarget.value;
              setOctal(text);
              const parsed = parseOctal(text);
              if (parsed !== null) setMode(parsed);
            }}
            data-testid="file-perm-octal"
          />
          <Text ff="monospace" c="dimmed" pb={valid ? 6 : 28} data-testid="file-perm-symbolic">
            {symbolic(mode)}
          </Text>
        </Group>
        <Actions
          busy={props.busy}
          valid={valid}
          label={t('servers.files.apply')}
          onClose={props.onClose}
          onOk={() => props.onApply(mode)}
          testId="file-permissions-submit"
        />
      </Stack>
    </Modal>
  );
}
