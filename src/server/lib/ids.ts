import { v7 as uuidv7 } from 'uuid';

/** A new id: UUIDv7, made in code, sortable by creation time on every database. */
export const newId = (): string => uuidv7();
