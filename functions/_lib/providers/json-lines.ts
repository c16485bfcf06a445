/** The local stand-ins keep what they did as one JSON value a line, so a developer or a test can read it back. */
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Every line of a JSON-lines file, oldest first; [] when the file does not exist yet. */
export async function readJsonLines<T>(file: string): Promise<T[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

/** Appends the values in one write, so they are in the file all or not at all and do not interleave between concurrent writers. */
export async function appendJsonLines(file: string, values: unknown[]): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await appendFile(file, values.map((value) => `${JSON.stringify(value)}\n`).join(''), 'utf8');
}
