/** Content mistakes as the author reads them: the field, what is wrong, and what is expected. */
import { z } from 'astro/zod';
import { describe, expect, it } from 'vitest';
import { explainedSchema, withClearErrors } from '../../src/features/content/content-errors';

const block = z.discriminatedUnion('type', [z.object({ type: z.literal('hero'), heading: z.string().min(1) }), z.object({ type: z.literal('faq'), items: z.array(z.string().min(1)).min(1) })]);
const raw = z.object({
  title: z.string().min(10).max(70),
  pageType: z.enum(['guide', 'gift_category']),
  href: z.string().regex(/^\//, 'internal path like /book'),
  image: z.string().startsWith('/images/'),
  date: z.coerce.date(),
  blocks: z.array(block).min(2),
});
const page = explainedSchema(raw);

function problems(input: unknown): string[] {
  const result = page.safeParse(input);
  expect(result.success).toBe(false);
  return result.error!.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

const valid = {
  title: 'A title long enough',
  pageType: 'guide',
  href: '/book',
  image: '/images/a.svg',
  date: '2025-04-15',
  blocks: [
    { type: 'hero', heading: 'Hi' },
    { type: 'faq', items: ['Q'] },
  ],
};

describe('content schema problems in the author\u2019s words', () => {
  it('a missing field names the block it sits in and what it should hold', () => {
    expect(problems({ ...valid, blocks: [{ type: 'hero' }, valid.blocks[1]] })).toEqual(['blocks.0.heading: missing: expected text (in the hero block)']);
  });

  it('an unknown block type lists the block types there are', () => {
    expect(problems({ ...valid, blocks: [valid.blocks[0], { type: 'gallery', items: [] }] })).toEqual(['blocks.1.type: unknown type "gallery": expected one of hero, faq']);
    expect(problems({ ...valid, blocks: [valid.blocks[0], { heading: 'No type' }] })).toEqual(['blocks.1.type: missing: expected one of hero, faq']);
  });

  it('sizes, choices, formats, dates and wrong kinds of value say what is expected', () => {
    expect(problems({ ...valid, title: 'Short', pageType: 'gift', href: 'book', image: 'a.png', date: 'someday', blocks: [valid.blocks[0], { type: 'faq', items: [] }] })).toEqual([
      'title: 5 characters: expected at least 10',
      'pageType: "gift": expected one of guide, gift_category',
      'href: "book": expected internal path like /book',
      'image: "a.png": expected text starting with /images/',
      'date: "someday": expected a date like 2025-04-15',
      'blocks.1.items: 0 items: expected at least 1 (in the faq block)',
    ]);
    expect(problems({ ...valid, title: 42, blocks: 'none' })).toEqual(['title: 42: expected text', 'blocks: "none": expected a list']);
  });

  it('valid content parses to exactly what the schema alone gives', () => {
    const parsed = page.parse(valid);
    expect(parsed.date).toBeInstanceOf(Date);
    expect(parsed).toEqual(raw.parse(valid));
  });

  it('wraps every collection whose schema is a zod schema and leaves the rest as they are', () => {
    const schemaFunction = () => z.object({});
    const collections = withClearErrors({ a: { schema: z.object({ n: z.number() }) }, b: { schema: schemaFunction }, c: {} });
    expect(collections.b.schema).toBe(schemaFunction);
    expect(collections.c).toEqual({});
    const result = (collections.a.schema as z.ZodType).safeParse({});
    expect(result.error?.issues[0]?.message).toBe('missing: expected a number');
  });
});
