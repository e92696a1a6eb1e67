import { describe, expect, it } from 'vitest';
import { instantOf, isTimeZone, lacksOffset, zonedFormatter } from './zoned-time.ts';

describe('the programme’s times', () => {
  it('shows an instant in a time zone with the offset of that instant', () => {
    const berlin = zonedFormatter('Europe/Berlin');
    // The March change: 02:00 becomes 03:00.
    expect(berlin('2026-03-29T00:30:00Z')).toBe('2026-03-29T01:30:00+01:00');
    expect(berlin('2026-03-29T01:30:00Z')).toBe('2026-03-29T03:30:00+02:00');
    // The October change: 02:30 happens twice, once in each offset.
    expect(berlin('2026-10-25T00:30:00Z')).toBe('2026-10-25T02:30:00+02:00');
    expect(berlin('2026-10-25T01:30:00Z')).toBe('2026-10-25T02:30:00+01:00');
    expect(berlin(Date.parse('2026-03-14T08:30:00.125Z'))).toBe('2026-03-14T09:30:00.125+01:00');
    expect(zonedFormatter('UTC')(0)).toBe('1970-01-01T00:00:00+00:00');
    expect(zonedFormatter('America/St_Johns')('2026-01-01T12:00:00Z')).toBe(
      '2026-01-01T08:30:00-03:30',
    );
    expect(zonedFormatter('Asia/Kathmandu')('2026-01-01T12:00:00Z')).toBe(
      '2026-01-01T17:45:00+05:45',
    );
  });

  it('reads times with an offset, and only those', () => {
    const utc = Date.parse('2026-03-14T08:30:00Z');
    expect(instantOf('2026-03-14T09:30:00+01:00')).toBe(utc);
    expect(instantOf('2026-03-14T09:30+0100')).toBe(utc);
    expect(instantOf('2026-03-14T08:30:00.000Z')).toBe(utc);
    expect(instantOf('2026-03-14T05:00:00-03:30')).toBe(utc);
    for (const text of [
      '2026-03-14T09:30:00',
      '2026-02-30T10:00:00Z',
      '2026-03-14T24:00:00Z',
      '2026-03-14T09:30:00+25:00',
      '2026-03-14 09:30:00Z',
      'tomorrow',
      '',
    ]) {
      expect(instantOf(text), text).toBeUndefined();
    }
    expect(lacksOffset('2026-03-14T09:30:00')).toBe(true);
    expect(lacksOffset('2026-03-14T09:30:00Z')).toBe(false);
  });

  it('knows IANA time zone names', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });
});
