/** "Did you mean …?" under an email field: a small map of slips on the big providers' domains. */
import { describe, expect, it } from 'vitest';
import { emailSuggestion } from '@/lib/email-typos';

describe('an email address with a common slip in its domain', () => {
  it.each([
    ['anna@gmial.com', 'anna@gmail.com'],
    ['anna@gmai.com', 'anna@gmail.com'],
    ['Anna.Kelly@HOTMIAL.COM', 'Anna.Kelly@hotmail.com'],
    ['anna@yaho.com', 'anna@yahoo.com'],
    ['anna@outlok.com', 'anna@outlook.com'],
    [' anna@icloud.co ', 'anna@icloud.com'],
  ])('%s → %s', (typed, suggested) => expect(emailSuggestion(typed)).toBe(suggested));

  it.each(['anna@gmail.com', 'anna@example.com', 'anna@icloud.com', 'gmial.com', '@gmial.com', 'anna@', ''])('%s gets no suggestion', (typed) => {
    expect(emailSuggestion(typed)).toBeNull();
  });
});
