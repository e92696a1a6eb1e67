import { memoryCreatedEventSchema, memoryDeletedEventSchema } from '../../shared/events.ts';
import type { Memory } from '../../shared/schemas/memory.ts';
import { withSocket } from './socket.ts';

/**
 * Listens to the memories created and deleted anywhere (each payload parsed; a malformed one is
 * dropped) and to the socket's reconnects, after which events may have been missed. The answer
 * stops listening. Made for `useEffect`, like `withSocket`.
 */
export function withMemoryEvents(handlers: {
  created: (memory: Memory) => void;
  deleted: (id: string) => void;
  reconnected: () => void;
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
    socket.io.on('reconnect', handlers.reconnected);
    return () => {
      socket.off('memoryCreated', created);
      socket.off('memoryDeleted', deleted);
      socket.io.off('reconnect', handlers.reconnected);
    };
  });
}
