import { isIPv6 } from 'node:net';

/**
 * The key of a client address for the limits that count per address: an IPv4 address as it is
 * (an IPv4-mapped IPv6 address as its IPv4 one); an IPv6 address by its first 64 bits, the
 * network one device or one home is given, so that rotating addresses within it gains nothing.
 */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  if (!isIPv6(ip)) return ip;
  const zoneless = ip.split('%', 1)[0] ?? ip;
  const [head = '', tail = ''] = zoneless.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === '' ? [] : tail.split(':');
  // An embedded IPv4 tail (`::1.2.3.4`) counts as two groups; only the first four matter here.
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = zoneless.includes('::')
    ? [...headGroups, ...Array<string>(Math.max(0, missing)).fill('0'), ...tailGroups]
    : headGroups;
  const prefix = groups
    .slice(0, 4)
    .map((group) => (group.includes('.') ? group : Number.parseInt(group || '0', 16).toString(16)));
  return `${prefix.join(':')}::/64`;
}
