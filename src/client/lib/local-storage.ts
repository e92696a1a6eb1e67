/**
 * Options for Mantine's `useLocalStorage` (and `readLocalStorageValue`) that keep one string as
 * it is, not as JSON, so values stored by earlier releases stay readable; it is read at the first
 * render, and a blank one counts as none. Every hook on the key follows it, in this tab and the
 * others.
 */
export const storedText = (key: string) => ({
  key,
  getInitialValueInEffect: false,
  serialize: (value: string | undefined) => value ?? '',
  deserialize: (value: string | undefined) => (value?.trim() ? value : undefined),
});
