import type { Template } from '@hearth/contract';
import { useState } from 'react';
import { convertV1Text, fromJsonText, toJsonText, type JsonParse } from '../model/json-view';

export type EditorMode = 'editor' | 'json';

export interface JsonProblem {
  messageKey: string;
  field?: string;
}

/**
 * The editor's state: the template (source of truth in the editor view), the JSON text (in the JSON view),
 * a pending 1.x conversion offer, and the last JSON problem. Switching views converts with the same schema
 * as the panel, so nothing the panel keeps is lost.
 */
export function useTemplateEditor(initial: Template) {
  const [template, setTemplate] = useState<Template>(initial);
  const [mode, setMode] = useState<EditorMode>('editor');
  const [jsonText, setJsonText] = useState('');
  const [v1Raw, setV1Raw] = useState<Record<string, unknown> | null>(null);
  const [problem, setProblem] = useState<JsonProblem | null>(null);
  const [converted, setConverted] = useState(false);

  /** Applies a parse of the JSON text; returns the template when it is usable. */
  const accept = (parsed: JsonParse): Template | null => {
    setV1Raw(null);
    setProblem(null);
    if (parsed.kind === 'ok') {
      setTemplate(parsed.template);
      return parsed.template;
    }
    if (parsed.kind === 'v1') setV1Raw(parsed.raw);
    else setProblem({ messageKey: parsed.messageKey, field: parsed.field });
    return null;
  };

  /** The template as it stands in either view, or null (with the reason shown) when the JSON is unusable. */
  const current = (): Template | null => (mode === 'json' ? accept(fromJsonText(jsonText)) : template);

  const switchTo = (next: EditorMode) => {
    if (next === mode) return;
    if (next === 'json') {
      setJsonText(toJsonText(template));
      setConverted(false);
      setMode('json');
      return;
    }
    if (accept(fromJsonText(jsonText))) setMode('editor');
  };

  const convertV1 = () => {
    if (!v1Raw) return;
    const result = accept(convertV1Text(v1Raw));
    if (result) {
      setJsonText(toJsonText(result));
      setConverted(true);
    }
  };

  const changeJson = (text: string) => {
    setJsonText(text);
    setV1Raw(null);
    setProblem(null);
    // Offer the 1.x conversion as soon as pasted text looks like 1.x, not only when leaving the view.
    const parsed = fromJsonText(text);
    if (parsed.kind === 'v1') setV1Raw(parsed.raw);
  };

  return {
    template,
    setTemplate,
    mode,
    switchTo,
    jsonText,
    changeJson,
    v1Offered: v1Raw !== null,
    convertV1,
    converted,
    problem,
    current,
  };
}
