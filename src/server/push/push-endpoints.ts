/**
 * The push services of the browsers (decision 240), the only hosts a subscription's endpoint may
 * name besides the origins of `PUSH_ALLOWED_ORIGINS`: the server calls the endpoint, so any other
 * address would let a caller make it send requests into its own network.
 * - Chrome, Edge on Android, Samsung Internet, Opera: Firebase Cloud Messaging.
 * - Firefox: Mozilla's autopush (`updates.push.services.mozilla.com`, formerly on
 *   `push.services.mozilla.com`).
 * - Safari (macOS 13+, iOS 16.4+ for apps on the Home Screen): Apple's web push.
 * - Edge on Windows: the Windows Push Notification Services, `<region>.notify.windows.com`.
 */
const PUSH_SERVICE_HOSTS = new Set([
  'fcm.googleapis.com',
  'updates.push.services.mozilla.com',
  'push.services.mozilla.com',
  'web.push.apple.com',
]);
const PUSH_SERVICE_DOMAINS = ['.notify.windows.com'];

/**
 * Whether the server may call `endpoint`: https only, on the standard port, no credentials, to a
 * browser's push service or an origin of `allowedOrigins` exactly (scheme, host and port).
 */
export function isAllowedPushEndpoint(
  endpoint: string,
  allowedOrigins: readonly string[],
): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' || url.username !== '' || url.password !== '') return false;
  if (allowedOrigins.includes(url.origin)) return true;
  if (url.port !== '') return false;
  const host = url.hostname.toLowerCase();
  return (
    PUSH_SERVICE_HOSTS.has(host) ||
    PUSH_SERVICE_DOMAINS.some((domain) => host.endsWith(domain) && host.length > domain.length)
  );
}
