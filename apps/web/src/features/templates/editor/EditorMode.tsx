import { Alert, SegmentedControl } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { EditorMode, JsonProblem } from './useTemplateEditor';

/** Editor or JSON view of a template (the template editor page and a server's definition overlay). */
export function EditorModeSwitch({
  mode,
  onChange,
}: {
  mode: EditorMode;
  onChange: (mode: EditorMode) => void;
}) {
  const { t } = useTranslation();
  return (
    <SegmentedControl<EditorMode>
      data-testid="editor-mode"
      value={mode}
      onChange={onChange}
      data={[
        { value: 'editor', label: t('templates.editor.modeEditor') },
        { value: 'json', label: t('templates.editor.modeJson') },
      ]}
    />
  );
}

/** Why the JSON view's text cannot be taken, when it cannot. */
export function JsonProblemAlert({ problem }: { problem: JsonProblem | null }) {
  const { t } = useTranslation();
  if (!problem) return null;
  return (
    <Alert color="red" data-testid="json-problem">
      {t(problem.messageKey, { field: problem.field })}
    </Alert>
  );
}
