/** A plain object (not null, not an array): what a JSON object decodes to. */
export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
