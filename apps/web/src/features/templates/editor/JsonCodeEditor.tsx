import type { Extension } from '@codemirror/state';
import { languages } from '@codemirror/language-data';
import CodeMirror from '@uiw/react-codemirror';
import { useEffect, useState } from 'react';

/** The JSON language, loaded through language-data like the file editor's languages. */
function useJsonLanguage(): Extension[] {
  const [extensions, setExtensions] = useState<Extension[]>([]);
  useEffect(() => {
    let live = true;
    const json = languages.find((lang) => lang.name === 'JSON');
    void json?.load().then((support) => {
      if (live) setExtensions([support]);
    });
    return () => {
      live = false;
    };
  }, []);
  return extensions;
}

interface Props {
  value: string;
  onChange: (text: string) => void;
  dark: boolean;
}

/** CodeMirror with JSON highlighting; its own module so the editor loads only with the JSON view. */
export default function JsonCodeEditor({ value, onChange, dark }: Props) {
  const extensions = useJsonLanguage();
  return (
    <CodeMirror
      value={value}
      onChange={onChange}
      extensions={extensions}
      theme={dark ? 'dark' : 'light'}
      dir="ltr" // code reads left-to-right in every language
      minHeight="400px"
      maxHeight="70vh"
    />
  );
}
