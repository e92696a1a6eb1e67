import { v7 as uuidv7 } from 'uuid';

/** A new id: UUIDv7, made in code, sortable by creation time on every database. */
export const newId = (): string => uuidv7();

// A UUIDv7's own bits: 48 of time, 12 before the version's, 62 after the variant's.
const RAND_B_BITS = 62n;
const RAND_A_BITS = 12n;

/**
 * The UUIDv7 `steps` places before `id` among every UUIDv7 (its time, then its two random
 * fields, read as one number and counted down; version and variant stay as they are). It sorts
 * just before `id` and after every id made earlier than `id`'s millisecond: what a post's next
 * file takes, so that "newest first" lists it right after the files before it (decision 200).
 */
export function idJustBefore(id: string, steps: number): string {
  const bits = BigInt(`0x${id.replaceAll('-', '')}`);
  const time = bits >> 80n;
  const randA = (bits >> 64n) & ((1n << RAND_A_BITS) - 1n);
  const randB = bits & ((1n << RAND_B_BITS) - 1n);
  const packed =
    (((time << RAND_A_BITS) | randA) << RAND_B_BITS) + randB - BigInt(Math.max(1, steps));
  const next = (packed >> (RAND_B_BITS + RAND_A_BITS)) << 80n;
  const a = (packed >> RAND_B_BITS) & ((1n << RAND_A_BITS) - 1n);
  const b = packed & ((1n << RAND_B_BITS) - 1n);
  const hex = (next | (0x7n << 76n) | (a << 64n) | (0b10n << 62n) | b)
    .toString(16)
    .padStart(32, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
