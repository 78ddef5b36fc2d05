/**
 * The code editor overlay: loaded only when a file is opened; language from the path, dark theme;
 * Ctrl+S / Cmd+S saves. A binary file (by content, text-content.ts) is offered as a download instead, with no
 * Save; closing or leaving with unsaved changes asks first (docs/files.md).
 */
import { Button, Group, Stack, Text } from '@mantine/core';
import { LanguageDescription, type LanguageSupport } from '@codemirror/language';
import { languages } from '@codemirror/language-data';
import CodeMirror from '@uiw/react-codemirror';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '../../../api/notify';
import { FullscreenOverlay } from '../../../components/FullscreenOverlay';
import { PageLoader } from '../../../components/PageLoader';
import { useAppearance } from '../../../theme/AppearanceProvider';
import { filesApi, fileUrl } from './api';
import { DiscardDialog } from './DiscardDialog';
import { baseName } from './file-model';
import { textOrBinary } from './text-content';
import { useUnsavedGuard } from './useUnsavedGuard';

interface Props {
  serverId: string;
  path: string;
  readOnly: boolean;
  onClose: () => void;
  onSaved: () => void;
}

export default function FileEditor({ serverId, path, readOnly, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const { dark } = useAppearance();
  const [text, setText] = useState<string | null>(null);
  // What the file held when opened or last saved; `null` until read.
  const [original, setOriginal] = useState<string | null>(null);
  const [binary, setBinary] = useState(false);
  const [asking, setAsking] = useState(false);
  const [language, setLanguage] = useState<LanguageSupport | null>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    let live = true;
    filesApi
      .readBlob(serverId, path)
      .then(textOrBinary)
      .then(
        (content) => {
          if (!live) return;
          if (content === null) return setBinary(true);
          setOriginal(content);
          setText(content);
        },
        (err: unknown) => {
          notifyError(err);
          onClose();
        },
      );
    const description = LanguageDescription.matchFilename(languages, baseName(path));
    description?.load().then(
      (support) => live && setLanguage(support),
      () => undefined, // no highlighting is still a working editor
    );
    return () => {
      live = false;
    };
  }, [serverId, path, onClose]);
  const dirty = !readOnly && text !== null && text !== original;
  const blocker = useUnsavedGuard(dirty);
  const close = () => (dirty ? setAsking(true) : onClose());
  const save = async () => {
    if (text === null) return;
    setSaving(true);
    try {
      await filesApi.saveText(serverId, path, text);
      setOriginal(text);
      notifySuccess(t('servers.files.saved'));
      onSaved();
    } catch (err) {
      notifyError(err);
    } finally {
      setSaving(false);
    }
  };
  return (
    <FullscreenOverlay opened onClose={close} title={path} data-testid="file-editor">
      {binary ? (
        <Stack data-testid="file-binary">
          <Text>{t('servers.files.binary')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.close')}
            </Button>
            <Button
              component="a"
              href={fileUrl(serverId, path)}
              download={baseName(path)}
              data-testid="file-binary-download"
            >
              {t('servers.files.download')}
            </Button>
          </Group>
        </Stack>
      ) : text === null ? (
        <PageLoader />
      ) : (
        <Stack
          onKeyDownCapture={(e) => {
            // Ctrl+S / Cmd+S saves instead of the browser's "save page" (caught before CodeMirror sees it).
            if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 's') {
              e.preventDefault();
              if (!readOnly && !saving) void save();
            }
          }}
        >
          <CodeMirror
            value={text}
            height="75vh"
            theme={dark ? 'dark' : 'light'}
            readOnly={readOnly}
            extensions={language ? [language] : []}
            onChange={setText}
            dir="ltr"
            data-testid="file-editor-code"
            data-language={language?.language.name ?? ''}
          />
          <Group justify="space-between">
            <Text size="xs" c="dimmed">
              {language?.language.name ?? ''}
            </Text>
            <Group>
              <Button variant="default" onClick={close} data-testid="file-editor-close">
                {t('common.close')}
              </Button>
              {!readOnly && (
                <Button loading={saving} onClick={() => void save()} data-testid="file-editor-save">
                  {t('common.save')}
                </Button>
              )}
            </Group>
          </Group>
        </Stack>
      )}
      {(asking || blocker.state === 'blocked') && (
        <DiscardDialog
          name={baseName(path)}
          onKeep={() => {
            setAsking(false);
            if (blocker.state === 'blocked') blocker.reset();
          }}
          onDiscard={() => {
            setAsking(false);
            if (blocker.state === 'blocked') blocker.proceed();
            else onClose();
          }}
        />
      )}
    </FullscreenOverlay>
  );
}
