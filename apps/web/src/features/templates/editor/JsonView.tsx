import { Loader } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { useAppearance } from '../../../theme/AppearanceProvider';

// CodeMirror is large: it loads only when someone opens the JSON view.
const JsonCodeEditor = lazy(() => import('./JsonCodeEditor'));

export function JsonView({ value, onChange }: { value: string; onChange: (text: string) => void }) {
  const { dark } = useAppearance();
  return (
    <div data-testid="json-view">
      <Suspense fallback={<Loader />}>
        <JsonCodeEditor value={value} onChange={onChange} dark={dark} />
      </Suspense>
    </div>
  );
}
