/** A catalog read that failed, with the message a shopper is shown. */
export class CatalogError extends Error {}
