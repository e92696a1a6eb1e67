/** An X handle: 1 to 15 letters, digits or underscores, with or without its leading @. */
const X_HANDLE = /^@?([A-Za-z0-9_]{1,15})$/;

/**
 * The X handle a username is (without its @), or undefined when it cannot be one: usernames are
 * free text, and "ada lovelace 🚀" is nobody's profile.
 */
export const xHandle = (username: string): string | undefined =>
  X_HANDLE.exec(username.trim())?.[1];

/** The X profile of a username that is a valid X handle; undefined for any other. */
export function xProfileUrl(username: string): string | undefined {
  const handle = xHandle(username);
  return handle === undefined ? undefined : `https://x.com/${handle}`;
}
