/**
 * The edit overlay of a list (variables, processors, environments): adding an item opens the overlay on a new
 * entry; closing it without saving removes that entry again. Pure, so it is tested without a browser.
 */
export interface ListEdit<T> {
  items: T[];
  /** Index being edited, or null when the overlay is closed. */
  editing: number | null;
  /** True while the edited entry was added by "add" and never saved. */
  isNew: boolean;
}

export function startAdd<T>(state: ListEdit<T>, item: T): ListEdit<T> {
  return { items: [...state.items, item], editing: state.items.length, isNew: true };
}

export function startEdit<T>(state: ListEdit<T>, index: number): ListEdit<T> {
  return { ...state, editing: index, isNew: false };
}

export function saveItem<T>(state: ListEdit<T>, item: T): ListEdit<T> {
  if (state.editing === null) return state;
  const items = state.items.map((old, i) => (i === state.editing ? item : old));
  return { items, editing: null, isNew: false };
}

export function closeEditor<T>(state: ListEdit<T>): ListEdit<T> {
  if (state.editing === null) return state;
  const items = state.isNew ? state.items.filter((_item, i) => i !== state.editing) : state.items;
  return { items, editing: null, isNew: false };
}

export function removeItem<T>(state: ListEdit<T>, index: number): ListEdit<T> {
  return { items: state.items.filter((_item, i) => i !== index), editing: null, isNew: false };
}
