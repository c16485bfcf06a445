/**
 * Content mistakes explained to the author: each problem names the field and says what is expected
 * ("missing: expected text", "unknown type "gallery": expected one of hero, prose, …"), and the build
 * and the dev server name the file. Astro's own wording says only "Required" for a missing field.
 */
import { z } from 'astro/zod';

type Issue = z.core.$ZodIssue;
type PathSegment = PropertyKey;

const KINDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'a group of fields',
  date: 'a date like 2025-04-15',
};

const kind = (expected: string): string => KINDS[expected] ?? expected;

function valueAt(input: unknown, path: readonly PathSegment[]): unknown {
  let value = input;
  for (const segment of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[segment];
  }
  return value;
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'an empty value';
  if (typeof value === 'string') return `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;
  if (Array.isArray(value)) return 'a list';
  if (value instanceof Date) return 'an invalid date';
  if (typeof value === 'object') return 'a group of fields';
  return String(value);
}

function sizeProblem(issue: Extract<Issue, { code: 'too_small' | 'too_big' }>, value: unknown): string {
  const limit = Number(issue.code === 'too_small' ? issue.minimum : issue.maximum);
  const bound = issue.code === 'too_small' ? 'at least' : 'at most';
  if (issue.origin === 'string') {
    const length = typeof value === 'string' ? value.length : 0;
    if (length === 0) return 'empty: expected text';
    return `${length} characters: expected ${bound} ${limit}`;
  }
  if (issue.origin === 'array') {
    const count = Array.isArray(value) ? value.length : 0;
    return `${count} ${count === 1 ? 'item' : 'items'}: expected ${bound} ${limit}`;
  }
  return `${describeValue(value)}: expected ${bound} ${limit}`;
}

function formatExpected(issue: Extract<Issue, { code: 'invalid_format' }>): string {
  if ('prefix' in issue && issue.format === 'starts_with') return `text starting with ${issue.prefix}`;
  if ('suffix' in issue && issue.format === 'ends_with') return `text ending with ${issue.suffix}`;
  // A pattern's own message (`z.string().regex(re, 'internal path like /book')`) says what is expected.
  if (issue.format === 'regex') return issue.message.startsWith('Invalid string') ? `text matching ${issue.pattern}` : issue.message;
  return `a valid ${issue.format}`;
}

/** One issue in the author's words: what is wrong with the field and what it should be. */
export function explainIssue(issue: Issue, input: unknown): string {
  const value = valueAt(input, issue.path);
  switch (issue.code) {
    case 'invalid_type':
      return value === undefined ? `missing: expected ${kind(issue.expected)}` : `${describeValue(value)}: expected ${kind(issue.expected)}`;
    case 'invalid_union':
      if ('discriminator' in issue && issue.discriminator && 'options' in issue && Array.isArray(issue.options)) {
        const options = (issue.options as unknown[]).map(String).join(', ');
        return value === undefined ? `missing: expected one of ${options}` : `unknown ${issue.discriminator} ${describeValue(value)}: expected one of ${options}`;
      }
      return `${describeValue(value)} matches none of the allowed shapes`;
    case 'invalid_value':
      return `${describeValue(value)}: expected ${issue.values.length === 1 ? describeValue(issue.values[0]) : `one of ${issue.values.map(String).join(', ')}`}`;
    case 'too_small':
    case 'too_big':
      return sizeProblem(issue, value);
    case 'invalid_format':
      return `${describeValue(value)}: expected ${formatExpected(issue)}`;
    default:
      return issue.message;
  }
}

/** ` (in the cards block)` when the field sits inside a landing block (a list item with a `type`). */
function blockContext(path: readonly PathSegment[], input: unknown): string {
  if (path.at(-1) === 'type') return '';
  for (let end = path.length; end > 0; end--) {
    if (typeof path[end - 1] !== 'number') continue;
    const type = (valueAt(input, path.slice(0, end)) as { type?: unknown } | undefined)?.type;
    if (typeof type === 'string') return ` (in the ${type} block)`;
  }
  return '';
}

/**
 * The same schema, with every problem it finds reworded by `explainIssue`. The parsed value and its type
 * are unchanged.
 */
export function explainedSchema<T extends z.ZodType>(schema: T): z.ZodType<z.output<T>> {
  return z.unknown().transform((input, ctx) => {
    const parsed = schema.safeParse(input);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) {
      ctx.addIssue({ code: 'custom', path: [...issue.path], message: explainIssue(issue, input) + blockContext(issue.path, input), input });
    }
    return z.NEVER;
  });
}

/** The content collections, each schema's problems explained to the author (a schema given as a function is left as it is). */
export function withClearErrors<T extends Record<string, { schema?: unknown }>>(collections: T): T {
  return Object.fromEntries(Object.entries(collections).map(([name, config]) => [name, config.schema instanceof z.ZodType ? { ...config, schema: explainedSchema(config.schema) } : config])) as T;
}
