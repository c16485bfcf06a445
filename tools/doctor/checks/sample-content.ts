/**
 * Copy still marked as sample: any file under content/ whose frontmatter (Markdown/MDX) or YAML has
 * `sample: true` at its top level (found by the same rule the build uses). It is a warning here: the
 * publisher replaces the copy, or confirms it and removes the marker, before going live; a production
 * build refuses to run until then.
 */
import { findSampleContent, SAMPLE_CONTENT_FIX } from '../../../src/features/content/sample-content';
import type { CheckResult, DoctorContext } from '../types';

const NAME = 'Sample content';

export async function checkSampleContent(context: DoctorContext): Promise<CheckResult> {
  const marked = await findSampleContent(context.rootDir);
  if (marked.length === 0) return { name: NAME, status: 'pass', detail: 'no file under content/ is marked sample: true' };
  return {
    name: NAME,
    status: 'warn',
    detail: `${marked.length} file${marked.length === 1 ? ' is' : 's are'} still marked sample: true — replace or confirm before going live:\n${marked.map((path) => `  ${path}`).join('\n')}`,
    fix: SAMPLE_CONTENT_FIX,
  };
}
