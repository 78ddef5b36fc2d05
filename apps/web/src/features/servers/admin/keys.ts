import { serverKeys } from '../api';

/** The admin tab's copy of the definition, refetched after every write. */
export const definitionKey = (id: string) => [...serverKeys.definition(id), 'admin'] as const;
