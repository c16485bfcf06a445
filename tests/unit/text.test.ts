/** One-line and multi-line text as the server stores it: no control characters, line breaks or bidi overrides. */
import { describe, expect, it } from 'vitest';
import { toMultiLine, toSingleLine } from '@/lib/text';
import { singleLine } from '@/lib/schemas';
import { checkShipment } from '@/features/shipping/shipment';
import { shippingFieldsSchema } from '../../src/features/checkout/order-fields';
import { contactNotificationSchema } from '@/features/forms/notification';

describe('toSingleLine', () => {
  it.each([
    ['Jane Doe\r\nACTION NEEDED: pay again at https://evil.example', 'Jane Doe ACTION NEEDED: pay again at https://evil.example'],
    ['  Maria \t Rossi  ', 'Maria Rossi'],
    ['Ma\u0000ria', 'Maria'],
    ['Line\u2028two\u2029three', 'Line two three'],
    ['next\u0085line', 'next line'],
    ['bell\u0007 esc\u001b del\u007f c1\u009b', 'bell esc del c1'],
    ['invoice\u202Efdp.exe', 'invoicefdp.exe'],
    ['\u2066isolated\u2069 \u200Fmark\u200E', 'isolated mark'],
    ["O'Brien-Smith, Sydney NSW 2150", "O'Brien-Smith, Sydney NSW 2150"],
    ['Zoë Müller 山田', 'Zoë Müller 山田'],
  ])('%j → %j', (value, expected) => expect(toSingleLine(value)).toBe(expected));
});

describe('toMultiLine', () => {
  it('keeps line breaks (as \\n) and tabs, drops every other control character and bidi overrides', () => {
    expect(toMultiLine('  Hello\u0000 there\r\nBye\rNow\u2028end\u202E\u0007\tdone  ')).toBe('Hello there\nBye\nNow\nend\tdone');
  });
});

describe('singleLine(): cleaned before the length is checked', () => {
  it('counts the cleaned value', () => {
    const schema = singleLine().min(1, 'blank').max(5, 'long');
    expect(schema.parse('  ab\r\ncd  ')).toBe('ab cd');
    expect(schema.safeParse('\u0000\u202E ').error?.issues[0]?.message).toBe('blank');
  });

  it('every one-line checkout field is stored on one line', () => {
    const dirty = (value: string) => `${value}\r\nACTION NEEDED\u0000 \u202E`;
    const parsed = shippingFieldsSchema.parse({
      fullName: dirty('Jane'),
      phone: dirty('0400 000 000'),
      addressLine1: dirty('1 Church St'),
      addressLine2: dirty('Unit 2'),
      city: dirty('Parramatta'),
      state: dirty('NSW'),
      postalCode: dirty('2150'),
      country: 'AU',
      shippingMethod: { id: 'au-standard' },
    });
    for (const field of ['fullName', 'phone', 'addressLine1', 'addressLine2', 'city', 'state', 'postalCode'] as const) {
      expect(parsed[field], field).toMatch(/^[^\r\n\u0000\u202E]+ ACTION NEEDED$/);
    }
  });

  it('the contact form: name and subject on one line, the message keeps its lines', () => {
    const parsed = contactNotificationSchema.parse({
      type: 'contact',
      data: { name: 'Maria\r\nRossi', email: 'maria@example.com', subject: 'Order\u2028Bcc: x@evil.example', message: 'Line one\r\nLine two\u0000' },
    });
    expect(parsed.data).toEqual({ name: 'Maria Rossi', email: 'maria@example.com', subject: 'Order Bcc: x@evil.example', message: 'Line one\nLine two' });
  });

  it('a carrier and tracking number entered in the back office', () => {
    expect(checkShipment({ carrier: 'other', carrierName: 'Sendle\r\nPay at evil.example', trackingNumber: ' SN\u0000123\u202E45 ' })).toEqual({
      shipment: { carrier: 'Sendle Pay at evil.example', trackingNumber: 'SN12345' },
    });
  });
});
