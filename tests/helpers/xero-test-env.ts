/**
 * The local Xero stand-in's books in a file of the test's own, and the quarter-hour schedule off (each sync is
 * started by the test: the schedule would post between its steps); answers the file, and a function that puts
 * both variables back as they were.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function useXeroTestFile(name: string): { file: string; restore: () => void } {
  const saved = { LOCAL_XERO_FILE: process.env.LOCAL_XERO_FILE, LOCAL_SCHEDULES: process.env.LOCAL_SCHEDULES };
  const file = join(mkdtempSync(join(tmpdir(), `${name}-`)), 'xero.jsonl');
  process.env.LOCAL_XERO_FILE = file;
  process.env.LOCAL_SCHEDULES = 'off';
  const restore = () => {
    for (const [variable, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[variable];
      else process.env[variable] = value;
    }
  };
  return { file, restore };
}
