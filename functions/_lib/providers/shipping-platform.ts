/**
 * The shipping platform: where a paid order goes to have its label bought and printed (MyPost Business through
 * Starshipit; CN23 customs labels abroad), and where its tracking events come from. Adapters: Starshipit
 * (`starshipit.ts`) and the local stand-in (`local-shipping.ts`); `select.ts` picks one.
 */

/** One line of the parcel, with what customs asks of it abroad. Value in dollars, weight in kilograms. */
export interface PlatformItem {
  description: string;
  /** The book's id; empty on a customs line, which names what customs reads instead. */
  sku: string;
  quantity: number;
  /** Kilograms per copy. */
  weight: number;
  /** Dollars per copy. */
  value: number;
  /** The Harmonized System code customs classifies it by (printed books: 4901.99). */
  tariffCode?: string;
  /** ISO 3166 alpha-2 code of where it was made. */
  countryOfOrigin?: string;
}

export interface PlatformDestination {
  /** The person the parcel is for; for an organisation's order, the contact there. */
  name: string;
  /** The school or parish an order on account goes to: on the label above the contact's name. */
  company?: string;
  email: string;
  phone?: string;
  street: string;
  suburb: string;
  city: string;
  state: string;
  postCode: string;
  /** ISO 3166 alpha-2. */
  country: string;
}

/** The order as the platform takes it: its order number is the shop's, so a second send finds the first. */
export interface PlatformOrder {
  orderNumber: string;
  reference: string;
  shippingMethod: string;
  destination: PlatformDestination;
  items: PlatformItem[];
  /** The parcel: kilograms and metres, as Starshipit's packages take them. */
  packages: Array<{ weight: number; length: number; width: number; height: number }>;
}

/** A label printed at the platform: the PDF(s) and the parcel's tracking number(s). */
export interface PlatformLabel {
  platformOrderId: string;
  carrier: string;
  trackingNumbers: string[];
  /** Each label as PDF bytes. */
  labels: Uint8Array[];
}

/** One tracking event, checked and reduced to what the shop keeps. */
export interface TrackingEvent {
  orderNumber: string;
  trackingNumber: string | null;
  carrier: string | null;
  status: string;
  /** When the carrier reported it (ISO). */
  occurredAt: string;
  /** SHA-256 (hex) of what identifies the event: the same event delivered twice has the same key. */
  eventKey: string;
}

export interface ShippingPlatform {
  name: 'starshipit' | 'local-test';
  /** Creates the order at the platform; answers the platform's id for it. */
  createOrder(order: PlatformOrder): Promise<{ platformOrderId: string }>;
  /** The platform's id of an order already sent with this number, or null: a send whose answer was lost is found here. */
  findOrder(orderNumber: string): Promise<{ platformOrderId: string } | null>;
  /** Changes where an order already at the platform goes (before its label is printed: a printed label keeps the old address). */
  updateOrder(platformOrderId: string, change: { destination: PlatformDestination }): Promise<void>;
  /** Takes an order without a label off the platform (the shop cancelled it), so it is never labelled there. */
  deleteOrder(platformOrderId: string): Promise<void>;
  /** Prints (buys) the order's label, or prints it again when `reprint` is set. */
  printLabel(platformOrderId: string, options: { reprint: boolean }): Promise<PlatformLabel>;
  /** Checks a tracking webhook's authentication and reads its event; throws WebhookSignatureError when it is not the platform's. */
  readWebhook(rawBody: string, headers: Headers): Promise<TrackingEvent>;
  /** A cheap authenticated call: resolves when the keys are accepted (the doctor's check). */
  checkAccess(): Promise<void>;
}
