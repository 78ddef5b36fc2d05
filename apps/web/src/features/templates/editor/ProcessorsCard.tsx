import type { Processor } from '@hearth/contract';
import { newProcessor } from '../model/processors';
import { ListCard } from './ListCard';
import { ProcessorOverlay } from './ProcessorOverlay';
import { describeProcessor } from './processorFields';
import { useListEditing } from './useListEditing';
import { useTranslation } from 'react-i18next';

interface Props {
  title: string;
  testId: string;
  steps: Processor[];
  onChange: (steps: Processor[]) => void;
}

/** Install, Pre Run Hook and Post Run Hook: an ordered list of processors, each edited in an overlay. */
export function ProcessorsCard({ title, testId, steps, onChange }: Props) {
  const { t } = useTranslation();
  const list = useListEditing(steps, onChange);
  return (
    <ListCard
      title={title}
      testId={testId}
      items={steps}
      emptyText={t('templates.processors.empty')}
      addLabel={t('templates.processors.add')}
      describe={describeProcessor}
      onAdd={() => list.add(newProcessor())}
      onOpen={list.open}
      onRemove={list.remove}
    >
      {list.current && (
        <ProcessorOverlay key={list.editing} step={list.current} onSave={list.save} onClose={list.close} />
      )}
    </ListCard>
  );
}
