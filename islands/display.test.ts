import { describe, expect, it } from 'vitest';
import { approx, formatInZone, offsetLabel } from './display';

describe('display', () => {
  const d = { code: 'USD', rates: { CNY: '1', USD: '7.1', JPY: '0.048', EUR: 'bad' } };

  it('converts at the site rates, rounded up, as the server does', () => {
    expect(approx('1,000.00', 'CNY', d)).toBe('≈ USD 140.85');
    expect(approx('71', 'CNY', d)).toBe('≈ USD 10.00');
    expect(approx('10000', 'JPY', d)).toBe('≈ USD 67.61');
    expect(approx('100', 'CNY', { code: 'JPY', rates: d.rates })).toBe('≈ JPY 2,084');
  });

  it('shows nothing without a rate for the pair or in the same currency', () => {
    expect(approx('100', 'USD', d)).toBe('');
    expect(approx('100', 'EUR', d)).toBe('');
    expect(approx('100', 'GBP', d)).toBe('');
    expect(approx('100', 'CNY', { code: '', rates: d.rates })).toBe('');
    expect(approx('0.00', 'CNY', d)).toBe('');
  });

  it('writes a time in the page zone with the offset named', () => {
    expect(formatInZone('2026-11-25T10:06:00Z', 'Asia/Shanghai')).toBe('2026-11-25 18:06 UTC+8');
    expect(formatInZone('2026-11-25T10:06:00Z', 'Asia/Kolkata')).toBe('2026-11-25 15:36 UTC+5:30');
    expect(formatInZone('2026-11-25T10:06:00Z', 'UTC')).toBe('2026-11-25 10:06 UTC');
    expect(offsetLabel('GMT-3')).toBe('UTC-3');
  });
});
