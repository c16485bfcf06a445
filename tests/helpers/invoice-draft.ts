/** A school's invoice draft as invoice_save_draft takes it (the database's own field names), with any field replaced. */
export const schoolInvoiceDraft = (over: Record<string, unknown> = {}) => ({
  organisation: "St Mary's Primary",
  contact_name: 'Ann Office',
  email: 'office@stmarys.example.com',
  phone: '02 9999 0000',
  address: { line1: '1 School Rd', line2: null, city: 'Parramatta', state: 'NSW', postcode: '2150', country: 'AU' },
  po_number: 'PO-7781',
  terms_days: 30,
  note: null,
  ship_before_payment: false,
  shipping: { kind: 'rate_card', name: 'AU Standard Courier', amount: 0, reason: null },
  lines: [{ product_id: 'class-book', quantity: 30 }],
  ...over,
});
