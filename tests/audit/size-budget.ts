/** Compares each built page's weight with the budget of its kind (budgets.ts). */
import { PAGE_BUDGETS, type PageBudget } from './budgets';
import type { BuiltPage } from './built-site';
import { measurePage, missingAssets, type PageWeight } from './page-weight';

export interface BudgetResult {
  weight: PageWeight;
  budget: PageBudget;
  /** Human-readable overruns, e.g. "JS gzip 181.2 KiB > 180 KiB"; empty when within budget. */
  over: string[];
  missing: string[];
}

export const kib = (bytes: number) => bytes / 1024;
const PART_NAMES = { html: 'HTML', css: 'CSS', js: 'JS', onUseJs: 'on-use JS', lazyJs: 'lazy JS' } as const;

export function checkBudget(weight: PageWeight, budget: PageBudget): string[] {
  const over: string[] = [];
  for (const part of ['html', 'css', 'js', 'onUseJs', 'lazyJs'] as const) {
    for (const measure of ['raw', 'gzip', 'brotli'] as const) {
      const actual = kib(weight[part][measure]);
      const limit = budget[part][measure];
      if (actual > limit) over.push(`${PART_NAMES[part]} ${measure} ${actual.toFixed(1)} KiB > ${limit} KiB`);
    }
  }
  return over;
}

export function checkPageBudgets(distDir: string, pages: BuiltPage[], budgets: Record<string, PageBudget> = PAGE_BUDGETS): BudgetResult[] {
  return pages.map((page) => {
    const weight = measurePage(distDir, page);
    const budget = budgets[page.kind]!;
    const missing = missingAssets(distDir, page);
    return { weight, budget, over: [...checkBudget(weight, budget), ...missing.map((url) => `missing asset ${url}`)], missing };
  });
}
