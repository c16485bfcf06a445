import { describe, expect, it } from 'vitest';
import { formatAbn, isValidAbn } from '@/lib/abn';

describe('ABNs', () => {
  it('accepts the ATO’s example and real-looking numbers however they are spaced', () => {
    expect(isValidAbn('51 824 753 556')).toBe(true);
    expect(isValidAbn('51824753556')).toBe(true);
    expect(isValidAbn('53 004 085 616')).toBe(true);
  });

  it('refuses a digit off, the wrong length, letters and a leading zero', () => {
    expect(isValidAbn('51 824 753 557')).toBe(false);
    expect(isValidAbn('5182475355')).toBe(false);
    expect(isValidAbn('51 824 753 55A')).toBe(false);
    expect(isValidAbn('01 824 753 556')).toBe(false);
  });

  it('writes it as the ATO does', () => {
    expect(formatAbn('51824753556')).toBe('51 824 753 556');
    expect(formatAbn('not an abn')).toBe('not an abn');
  });
});
