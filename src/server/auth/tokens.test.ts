import { describe, expect, it } from 'vitest';
import { PartyTokenSigner } from './tokens.ts';

const HOUR = 3_600_000;

describe('attendee and speaker tokens', () => {
  const signer = new PartyTokenSigner('a-secret-that-is-long-enough-for-the-tests-1234');
  const issued = new Date('2026-11-28T09:00:00Z');

  it('a token checked again says the same, until it expires: then it is refused', async () => {
    const token = await signer.sign('attendee', { subject: 'a1', name: 'grace' }, issued, HOUR);
    const first = await signer.verify('attendee', token, issued);
    expect(first).toEqual({
      ok: true,
      claims: { subject: 'a1', name: 'grace', secretVersion: undefined, issuedAt: issued },
    });
    expect(await signer.verify('attendee', token, new Date(issued.getTime() + HOUR / 2))).toEqual(
      first,
    );
    expect(await signer.verify('attendee', token, new Date(issued.getTime() + HOUR))).toEqual({
      ok: false,
      reason: 'expired',
    });
  });

  it('a token found valid is still refused as another kind, and a forged copy is refused', async () => {
    const token = await signer.sign('attendee', { subject: 'a2', name: 'ada' }, issued, HOUR);
    expect((await signer.verify('attendee', token, issued)).ok).toBe(true);
    expect((await signer.verify('speaker', token, issued)).ok).toBe(false);
    const [header, payload, signature = ''] = token.split('.');
    const other = signature.startsWith('A') ? 'B' : 'A';
    const forged = [header, payload, `${other}${signature.slice(1)}`].join('.');
    expect((await signer.verify('attendee', forged, issued)).ok).toBe(false);
    const claims = Buffer.from(payload ?? '', 'base64url').toString();
    const renamed = Buffer.from(claims.replace('"ada"', '"eve"')).toString('base64url');
    expect(
      (await signer.verify('attendee', [header, renamed, signature].join('.'), issued)).ok,
    ).toBe(false);
  });
});
