import { memoryCreatedEventSchema, memoryDeletedEventSchema } from '../../shared/events.ts';
import type { Memory } from '../../shared/schemas/memory.ts';
import { withSocket } from './socket.ts';

/**
 * Listens to the memories created and deleted anywhere (each payload parsed; a malformed one is
 * dropped) and to the socket's connects: the first one, which comes after the page's lists were
 * fetched, and every one after a drop. Events sent before a connect were not received, so the
 * lists catch up then. The answer stops listening. Made for `useEffect`, like `withSocket`.
 */
export function withMemoryEvents(handlers: {
  created: (memory: Memory) => void;
  deleted: (id: string) => void;
  connected: () => void;
}): () => void {
  const created = (payload: unknown) => {
    const parsed = memoryCreatedEventSchema.safeParse(payload);
    if (parsed.success) handlers.created(parsed.data.memory);
  };
  const deleted = (payload: unknown) => {
    const parsed = memoryDeletedEventSchema.safeParse(payload);
    if (parsed.success) handlers.deleted(parsed.data.id);
  };
  return withSocket((socket) => {
    socket.on('memoryCreated', created);
    socket.on('memoryDeleted', deleted);
    socket.on('connect', handlers.connected);
    return () => {
      socket.off('memoryCreated', created);
      socket.off('memoryDeleted', deleted);
      socket.off('connect', handlers.connected);
    };
  });
}
