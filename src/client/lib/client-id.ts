import { STORAGE_KEYS } from '../../shared/constants.ts';

let held: string | undefined;

/** 128 random bits as hex: `crypto.randomUUID` needs a secure context, which a venue's LAN may not be. */
const randomId = (): string =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) =>
    byte.toString(16).padStart(2, '0'),
  ).join('');

/**
 * A random id of this device, made at its first call and kept in local storage: sent with every
 * call (and the join, before there is a username), so the server's limits count this person,
 * not everyone behind the venue's address. Without storage (a private window that refuses it),
 * one id for the page's life.
 */
export function clientId(): string {
  if (held) return held;
  try {
    held = localStorage.getItem(STORAGE_KEYS.clientId) ?? undefined;
    if (!held || !/^[0-9a-f]{32}$/.test(held)) {
      held = randomId();
      localStorage.setItem(STORAGE_KEYS.clientId, held);
    }
  } catch {
    held ??= randomId();
  }
  return held;
}
