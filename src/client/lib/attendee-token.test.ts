import { describe, expect, it } from 'vitest';
import { attendeeIdOf } from './attendee-token.ts';

const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('the attendee id a token names', () => {
  it('is its subject, read without a check', () => {
    const token = `${part({ alg: 'HS256' })}.${part({ sub: '01a2-ß', name: 'ada' })}.signature`;
    expect(attendeeIdOf(token)).toBe('01a2-ß');
  });

  it('is none for no token, or one that does not read', () => {
    expect(attendeeIdOf(undefined)).toBeUndefined();
    expect(attendeeIdOf('garbage')).toBeUndefined();
    expect(attendeeIdOf('a.%%%.c')).toBeUndefined();
    expect(attendeeIdOf(`a.${part({ name: 'ada' })}.c`)).toBeUndefined();
    expect(attendeeIdOf(`a.${part({ sub: 7 })}.c`)).toBeUndefined();
  });
});
