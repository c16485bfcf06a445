/**
 * Which ways to pay a payment page may offer. The shop lists none itself: Stripe offers the methods turned on in
 * its dashboard. An order holding a pre-order is charged in full today, as the checkout says; pay-later methods
 * (Afterpay and its kind) are not offered for it, should the publisher ever turn one on: their instalments or
 * deferred charge run on terms that expect the goods to ship now, not months later when the book is out.
 */

/** Stripe's names for the pay-later methods it can offer for an Australian shop's checkout. */
export const DEFERRED_PAYMENT_METHODS = ['afterpay_clearpay', 'klarna', 'zip', 'affirm'] as const;

export type DeferredPaymentMethod = (typeof DEFERRED_PAYMENT_METHODS)[number];

/** The methods a payment page leaves out: the pay-later ones when the order holds a pre-order, else none. */
export const excludedPaymentMethods = (holdsPreorder: boolean): DeferredPaymentMethod[] => (holdsPreorder ? [...DEFERRED_PAYMENT_METHODS] : []);
