import { useState } from 'react';
import { closeEditor, removeItem, saveItem, startAdd, startEdit, type ListEdit } from '../model/list-edit';

/**
 * Wires the pure list-edit rules to a list the template owns: adding appends the item and opens its
 * overlay; closing the overlay of an item that was never saved removes it again.
 */
export function useListEditing<T>(items: T[], setItems: (items: T[]) => void) {
  const [edit, setEdit] = useState<{ editing: number | null; isNew: boolean }>({
    editing: null,
    isNew: false,
  });
  const state: ListEdit<T> = { items, ...edit };
  const apply = (next: ListEdit<T>) => {
    if (next.items !== items) setItems(next.items);
    setEdit({ editing: next.editing, isNew: next.isNew });
  };
  return {
    editing: edit.editing,
    current: edit.editing === null ? undefined : items[edit.editing],
    add: (item: T) => apply(startAdd(state, item)),
    open: (index: number) => apply(startEdit(state, index)),
    save: (item: T) => apply(saveItem(state, item)),
    close: () => apply(closeEditor(state)),
    remove: (index: number) => apply(removeItem(state, index)),
  };
}
