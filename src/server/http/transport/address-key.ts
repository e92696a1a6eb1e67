/**
 * The key of a client address for the limits that count per address (rate limits, join prices,
 * failed admin logins).
 */
/** The eight 16-bit groups of an IPv6 address (zone left off), or undefined. */
function ipv6Groups(address: string): number[] | undefined {
  let text = address.split('%')[0] ?? '';
  const dotted = /(?:^|:)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (dotted?.[1]) {
    // A trailing IPv4 address is the last two groups.
    const bytes = dotted[1].split('.').map(Number);
    if (bytes.some((byte) => byte > 255)) return undefined;
    const [a = 0, b = 0, c = 0, d = 0] = bytes;
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const parse = (part: string | undefined) => (part ? part.split(':') : []);
  const head = parse(halves[0]);
  const tail = parse(halves[1]);
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 1 ? 0 : missing).fill('0'), ...tail];
  if (!groups.every((group) => /^[0-9a-f]{1,4}$/i.test(group))) return undefined;
  return groups.map((group) => Number.parseInt(group, 16));
}

/**
 * The key an address is counted under: an IPv4 address as it is (an IPv4-mapped IPv6 one as its
 * IPv4 address), an IPv6 address by its /64, since one home or phone is given a whole /64 and
 * can take any address in it.
 */
export function addressKey(address: string): string {
  if (!address.includes(':')) return address;
  const groups = ipv6Groups(address);
  if (!groups) return address;
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}
