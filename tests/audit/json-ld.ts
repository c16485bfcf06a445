/**
 * Structured data checks on built pages: every `<script type="application/ld+json">` parses, each page
 * carries the schema.org types it should, and every entity has the required properties of its type
 * (json-ld-rules.ts; a missing recommended one is a warning), with well-formed prices, currencies and links.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BuiltPage } from './built-site';
import { JSON_LD_RULES } from './json-ld-rules';

type Node = Record<string, unknown>;

export interface JsonLdResult {
  path: string;
  blocks: number;
  /** Top-level @type of each block, in page order. */
  types: string[];
  expected: string[];
  /** Failures: malformed values, missing required properties or expected types. */
  problems: string[];
  /** Missing recommended properties and values Google may not use. */
  warnings: string[];
}

const SCRIPT = /<script\b[^>]*\btype=(["'])application\/ld\+json\1[^>]*>([\s\S]*?)<\/script>/gi;

/** The raw text of each JSON-LD block on a page. */
export function jsonLdBlocks(html: string): string[] {
  return [...html.matchAll(SCRIPT)].map((match) => match[2] ?? '');
}

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);
const typesOf = (node: Node): string[] => (Array.isArray(node['@type']) ? (node['@type'] as string[]) : typeof node['@type'] === 'string' ? [node['@type']] : []);
const asList = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]);
const filled = (value: unknown) => (typeof value === 'string' ? value.trim() !== '' : value !== undefined && value !== null);
const isAbsoluteUrl = (value: unknown) => typeof value === 'string' && /^https?:\/\/[^\s]+$/.test(value);
const isCurrency = (value: unknown) => typeof value === 'string' && /^[A-Z]{3}$/.test(value);
const isPrice = (value: unknown) => (typeof value === 'number' && value >= 0) || (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value));

/** Every object in a JSON-LD value, nested ones included (each block may be a node, an array or a @graph). */
function allNodes(value: unknown, out: Node[] = []): Node[] {
  if (Array.isArray(value)) value.forEach((item) => allNodes(item, out));
  else if (isNode(value)) {
    out.push(value);
    Object.values(value).forEach((child) => allNodes(child, out));
  }
  return out;
}

/** The top-level entities of one block. */
function topLevel(value: unknown): Node[] {
  if (Array.isArray(value)) return value.filter(isNode);
  if (isNode(value) && Array.isArray(value['@graph'])) return (value['@graph'] as unknown[]).filter(isNode);
  return isNode(value) ? [value] : [];
}

/** Every type with a rule: required properties missing are problems, recommended ones warnings. */
function checkRules(node: Node, label: string, place: { topLevel: boolean; productOffer: boolean }, problems: string[], warnings: string[]): void {
  for (const type of typesOf(node)) {
    const rule = JSON_LD_RULES[type];
    if (!rule || (rule.topLevel && !place.topLevel) || Boolean(rule.productOfferOnly) !== place.productOffer) continue;
    const missing = (spec: string) => !spec.split('|').some((property) => filled(node[property]));
    for (const spec of rule.required.filter(missing)) problems.push(`${label}: ${type} requires ${spec.replaceAll('|', ' or ')}`);
    for (const spec of rule.recommended.filter(missing)) warnings.push(`${label}: ${type} should have ${spec.replaceAll('|', ' or ')}`);
  }
}

function checkReturnPolicy(policy: Node, where: string, problems: string[]): void {
  const category = String(policy.returnPolicyCategory ?? '');
  if (category && !/^https?:\/\/schema\.org\/MerchantReturn(FiniteReturnWindow|NotPermitted|UnlimitedWindow)$/.test(category)) {
    problems.push(`${where}: returnPolicyCategory ${category} is not one Google accepts`);
  }
  if (category.endsWith('FiniteReturnWindow') && !filled(policy.merchantReturnDays)) problems.push(`${where}: a finite return window requires merchantReturnDays`);
  for (const country of asList(policy.applicableCountry)) {
    if (typeof country !== 'string' || !/^[A-Z]{2}$/.test(country)) problems.push(`${where}: applicableCountry ${JSON.stringify(country)} is not an ISO 3166-1 alpha-2 code`);
  }
}

function checkOffer(offer: unknown, where: string, problems: string[], warnings: string[] = []): void {
  if (!isNode(offer)) return void problems.push(`${where}: offer is not an object`);
  checkRules(offer, where, { topLevel: false, productOffer: true }, problems, warnings);
  const types = typesOf(offer);
  if (types.includes('AggregateOffer')) {
    for (const field of ['lowPrice', 'highPrice'] as const) if (offer[field] !== undefined && !isPrice(offer[field])) problems.push(`${where}: AggregateOffer ${field} not a number`);
    if (offer.priceCurrency !== undefined && !isCurrency(offer.priceCurrency)) problems.push(`${where}: AggregateOffer priceCurrency not ISO 4217`);
    asList(offer.offers).forEach((inner, i) => checkOffer(inner, `${where}.offers[${i}]`, problems, warnings));
    return;
  }
  if (offer.price !== undefined && !isPrice(offer.price)) problems.push(`${where}: offer price not a number`);
  if (offer.priceCurrency !== undefined && !isCurrency(offer.priceCurrency)) problems.push(`${where}: offer priceCurrency not ISO 4217`);
  if (offer.availability !== undefined && !/^https?:\/\/schema\.org\/\w+$/.test(String(offer.availability))) problems.push(`${where}: offer availability not a schema.org URL`);
  if (offer.priceValidUntil !== undefined && !/^\d{4}-\d{2}-\d{2}/.test(String(offer.priceValidUntil))) problems.push(`${where}: priceValidUntil is not an ISO 8601 date`);
  // A pre-order says when it can first be had (Google's merchant listings read availabilityStarts for PreOrder).
  const preorder = /\/PreOrder$/.test(String(offer.availability ?? ''));
  if (preorder && !/^\d{4}-\d{2}-\d{2}/.test(String(offer.availabilityStarts ?? ''))) problems.push(`${where}: a PreOrder offer needs availabilityStarts, an ISO 8601 date`);
  if (!preorder && offer.availabilityStarts !== undefined) problems.push(`${where}: availabilityStarts on an offer that is not a PreOrder`);
  checkPriceSpecifications(offer, where, problems);
  asList(offer.shippingDetails).forEach((details, i) => {
    const rate = isNode(details) && isNode(details.shippingRate) ? details.shippingRate : undefined;
    if (rate && rate.currency !== offer.priceCurrency) {
      warnings.push(`${where}.shippingDetails[${i}]: shipping is charged in ${String(rate.currency)}, the offer in ${String(offer.priceCurrency)} (Google expects one currency)`);
    }
  });
}

/** The price types Google reads in a merchant listing's priceSpecification besides the selling price. */
const PRICE_TYPES = /^https?:\/\/schema\.org\/(StrikethroughPrice|ListPrice)$/;

/**
 * Google's merchant listings read one selling price per Offer: a priceSpecification may restate it, add a
 * strikethrough or list price (priceType) or a unit price (referenceQuantity), each with price and
 * priceCurrency in the offer's currency. Prices by quantity (eligibleQuantity) are not read: they belong on
 * the page, not in the Offer.
 */
function checkPriceSpecifications(offer: Node, where: string, problems: string[]): void {
  let selling = 0;
  asList(offer.priceSpecification).forEach((spec, i) => {
    const at = `${where}.priceSpecification[${i}]`;
    if (!isNode(spec)) return void problems.push(`${at}: not an object`);
    if (!typesOf(spec).some((type) => type === 'UnitPriceSpecification' || type === 'PriceSpecification')) problems.push(`${at}: not a UnitPriceSpecification`);
    if (!isPrice(spec.price)) problems.push(`${at}: price missing or not a number`);
    if (spec.priceCurrency !== offer.priceCurrency) problems.push(`${at}: priceCurrency ${String(spec.priceCurrency)} is not the offer's ${String(offer.priceCurrency)}`);
    if (spec.eligibleQuantity !== undefined) problems.push(`${at}: a price by quantity (eligibleQuantity) is not one Google reads; an Offer has one price, the page shows the others`);
    if (spec.priceType !== undefined && !PRICE_TYPES.test(String(spec.priceType))) problems.push(`${at}: priceType ${String(spec.priceType)} is not StrikethroughPrice or ListPrice`);
    const reference = spec.referenceQuantity;
    if (reference !== undefined && (!isNode(reference) || typeof reference.value !== 'number' || !filled(reference.unitCode))) {
      problems.push(`${at}: referenceQuantity needs a numeric value and a unitCode`);
    }
    if (spec.priceType !== undefined || reference !== undefined) return;
    selling++;
    if (offer.price !== undefined && Number(spec.price) !== Number(offer.price)) problems.push(`${at}: price ${String(spec.price)} is not the offer's ${String(offer.price)}`);
  });
  if (selling > 1) problems.push(`${where}: ${selling} selling prices in priceSpecification; Google reads one per Offer`);
}

/** Handling and transit times as Google reads them: days, from a minimum to a maximum. */
function checkDeliveryTime(time: Node, where: string, problems: string[]): void {
  for (const field of ['handlingTime', 'transitTime'] as const) {
    const value = time[field];
    if (value === undefined) continue;
    const ok = isNode(value) && typeof value.minValue === 'number' && typeof value.maxValue === 'number' && value.minValue <= value.maxValue && /^(DAY|d)$/.test(String(value.unitCode));
    if (!ok) problems.push(`${where}: ${field} is not a QuantitativeValue of days with minValue ≤ maxValue`);
  }
}

function checkProduct(product: Node, where: string, problems: string[], warnings: string[]): void {
  // The shop's own rule on top of Google's: every product it sells carries its SKU.
  if (!filled(product.sku)) problems.push(`${where}: Product sku missing`);
  const offers = asList(product.offers);
  if (offers.length === 0) problems.push(`${where}: Product has no offers`);
  offers.forEach((offer, i) => checkOffer(offer, `${where}.offers${offers.length > 1 ? `[${i}]` : ''}`, problems, warnings));
}

function checkBreadcrumbs(list: Node, where: string, problems: string[]): void {
  const items = asList(list.itemListElement);
  if (items.length === 0) return void problems.push(`${where}: BreadcrumbList has no itemListElement`);
  items.forEach((item, i) => {
    const at = `${where}.itemListElement[${i}]`;
    if (!isNode(item)) return void problems.push(`${at}: not an object`);
    if (item.position !== i + 1) problems.push(`${at}: position is ${JSON.stringify(item.position)}, expected ${i + 1}`);
    if (!filled(item.name)) problems.push(`${at}: name missing`);
    const target = isNode(item.item) ? item.item['@id'] : item.item;
    if (!isAbsoluteUrl(target)) problems.push(`${at}: item missing or not an absolute URL`);
  });
}

function checkFaq(faq: Node, where: string, problems: string[]): number {
  const questions = asList(faq.mainEntity);
  if (questions.length === 0) problems.push(`${where}: FAQPage has no mainEntity questions`);
  questions.forEach((question, i) => {
    const at = `${where}.mainEntity[${i}]`;
    if (!isNode(question) || !typesOf(question).includes('Question')) return void problems.push(`${at}: not a Question`);
    if (!filled(question.name)) problems.push(`${at}: Question name missing`);
    const answer = question.acceptedAnswer;
    if (!isNode(answer) || !typesOf(answer).includes('Answer') || !filled(answer.text)) problems.push(`${at}: acceptedAnswer missing, not an Answer or without text`);
  });
  return questions.length;
}

function checkArticle(post: Node, where: string, problems: string[]): void {
  for (const field of ['datePublished', 'dateModified'] as const) {
    const value = post[field];
    if (value !== undefined && (typeof value !== 'string' || Number.isNaN(Date.parse(value)))) problems.push(`${where}: ${field} is not a date`);
  }
  if (post.author !== undefined && !asList(post.author).some((a) => isNode(a) && filled(a.name))) problems.push(`${where}: author without a name`);
}

/** The words a visitor can read on the page: the body without scripts, styles or tags, entities decoded, spaces collapsed. */
export function visibleText(html: string): string {
  const body = html.match(/<body\b[^>]*>([\s\S]*)<\/body>/i)?.[1] ?? html;
  return body
    .replace(/<(script|style|template|noscript)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&#x([\da-f]+);/gi, (_, code: string) => String.fromCodePoint(Number.parseInt(code, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

const squeeze = (value: unknown) =>
  String(value ?? '')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * Google's review guidelines: reviews and ratings marked up on a page must be shown on it. Every Review's
 * words, reviewer and rating ("5 out of 5 stars") must be in the page's text, and an AggregateRating must
 * count the reviews marked up beside it and average their ratings.
 */
function checkReviewsShown(product: Node, where: string, text: string, problems: string[]): void {
  const reviews = asList(product.review).filter(isNode);
  for (const [i, review] of reviews.entries()) {
    const at = `${where}.review[${i}]`;
    const author = asList(review.author).find(isNode)?.name ?? review.author;
    const rating = isNode(review.reviewRating) ? review.reviewRating : {};
    const stars = `${String(rating.ratingValue)} out of ${String(rating.bestRating ?? 5)} stars`;
    for (const [what, words] of [
      ['its words', squeeze(review.reviewBody)],
      ['its reviewer', squeeze(author)],
      ['its rating', stars],
    ] as const) {
      if (words && !text.includes(words)) problems.push(`${at}: the review is marked up but the page does not show ${what} ("${words.slice(0, 60)}")`);
    }
  }
  const aggregate = isNode(product.aggregateRating) ? product.aggregateRating : undefined;
  if (!aggregate) return;
  const count = Number(aggregate.reviewCount ?? aggregate.ratingCount);
  if (count !== reviews.length) problems.push(`${where}.aggregateRating: counts ${count} reviews, the page marks up and shows ${reviews.length}`);
  const ratings = reviews.map((review) => Number(isNode(review.reviewRating) ? review.reviewRating.ratingValue : Number.NaN));
  const average = ratings.length ? Math.round((ratings.reduce((a, b) => a + b, 0) / ratings.length) * 10) / 10 : Number.NaN;
  if (Number(aggregate.ratingValue) !== average) problems.push(`${where}.aggregateRating: ratingValue ${String(aggregate.ratingValue)} is not the average of the reviews shown (${average})`);
}

export interface JsonLdExpectation {
  /** Top-level types the page must carry. */
  types: string[];
  /** Number of FAQ questions the content has (the FAQPage must list them all). */
  faqQuestions?: number;
}

/** Validates the JSON-LD of one page's HTML against what the page should carry. */
export function validateJsonLd(path: string, html: string, expectation: JsonLdExpectation = { types: [] }): JsonLdResult {
  const problems: string[] = [];
  const warnings: string[] = [];
  const types: string[] = [];
  const entities: Node[] = [];
  const nodes: Node[] = [];
  const blocks = jsonLdBlocks(html);
  blocks.forEach((raw, b) => {
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      types.push('(unparsable)');
      return void problems.push(`block ${b + 1}: does not parse: ${(error as Error).message}`);
    }
    const top = topLevel(value);
    if (top.length === 0) problems.push(`block ${b + 1}: holds no JSON-LD object`);
    const context = isNode(value) ? value['@context'] : undefined;
    for (const entity of top) {
      const ctx = entity['@context'] ?? context;
      if (typeof ctx !== 'string' || !/^https?:\/\/schema\.org\/?$/.test(ctx)) problems.push(`block ${b + 1}: @context is not schema.org`);
      if (typesOf(entity).length === 0) problems.push(`block ${b + 1}: an entity has no @type`);
      types.push(typesOf(entity).join('+') || '(no @type)');
    }
    entities.push(...top);
    nodes.push(...allNodes(value));
  });

  // Field checks wherever the type appears (a Product nested in an Offer is held to the same rules).
  let faqCount = 0;
  const text = visibleText(html);
  nodes.forEach((node) => {
    const t = typesOf(node);
    const label = `${t.join('+')}${typeof node['@id'] === 'string' ? ` ${node['@id']}` : ''}`;
    checkRules(node, label, { topLevel: entities.includes(node), productOffer: false }, problems, warnings);
    if (t.includes('Product')) checkProduct(node, label, problems, warnings);
    if (t.includes('Product')) checkReviewsShown(node, label, text, problems);
    if (t.includes('MerchantReturnPolicy')) checkReturnPolicy(node, label, problems);
    if (t.includes('ShippingDeliveryTime')) checkDeliveryTime(node, label, problems);
    if (t.includes('BreadcrumbList')) checkBreadcrumbs(node, label, problems);
    if (t.includes('FAQPage')) faqCount += checkFaq(node, label, problems);
    if (t.includes('BlogPosting') || t.includes('Article')) checkArticle(node, label, problems);
  });

  // A bare {"@id": …} reference must point at an entity on the same page.
  const isReference = (n: Node) => Object.keys(n).length === 1 && typeof n['@id'] === 'string';
  const defined = new Set(nodes.filter((n) => !isReference(n)).map((n) => n['@id']));
  for (const node of nodes.filter(isReference)) {
    if (!defined.has(node['@id'])) problems.push(`reference to ${String(node['@id'])} has no entity with that @id on the page`);
  }

  const present = new Set(entities.flatMap(typesOf));
  for (const type of expectation.types) if (!present.has(type)) problems.push(`expected a top-level ${type}, found none`);
  if (expectation.faqQuestions !== undefined && expectation.faqQuestions > 0 && faqCount !== expectation.faqQuestions) {
    problems.push(`the page has ${expectation.faqQuestions} FAQ questions, FAQPage lists ${faqCount}`);
  }
  return { path, blocks: blocks.length, types, expected: expectation.types, problems, warnings };
}

/** What a landing page's content entry promises: read from its YAML's top-level keys. */
function landingExpectation(projectRoot: string, slug: string): JsonLdExpectation {
  const file = join(projectRoot, 'content', 'landing', `${slug}.yaml`);
  if (!existsSync(file)) return { types: ['WebPage', 'BreadcrumbList'] };
  const yaml = readFileSync(file, 'utf8');
  const faqQuestions = yaml.match(/^\s+- question:/gm)?.length ?? 0;
  return {
    types: [
      'WebPage',
      'BreadcrumbList',
      ...(/^productSchema:\s*false/m.test(yaml) ? [] : ['Product']),
      ...(/^localBusiness:/m.test(yaml) ? ['LocalBusiness'] : []),
      ...(faqQuestions > 0 ? ['FAQPage'] : []),
    ],
    faqQuestions,
  };
}

/** The structured data each kind of page must carry; pages not listed need none (but what they have must be valid). */
export function expectationFor(page: Pick<BuiltPage, 'path' | 'kind'>, projectRoot = process.cwd()): JsonLdExpectation {
  switch (page.kind) {
    case 'landing':
      return landingExpectation(projectRoot, page.path.slice(1));
    case 'book':
      return { types: ['Product', 'BreadcrumbList'] };
    case 'product':
      // /store/product is the fallback page that loads a product added after the build: nothing to describe yet.
      return { types: page.path === '/store/product' ? [] : ['Product', 'BreadcrumbList'] };
    case 'blog':
    case 'store':
      return { types: ['BreadcrumbList'] };
    case 'post':
      return { types: ['BlogPosting', 'BreadcrumbList'] };
    case 'home':
      return { types: ['Organization'] };
    default:
      return { types: [] };
  }
}

export function validateBuiltPages(pages: BuiltPage[], projectRoot = process.cwd()): JsonLdResult[] {
  return pages.map((page) => validateJsonLd(page.path, page.html, expectationFor(page, projectRoot)));
}
