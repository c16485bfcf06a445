import type { ReactNode } from 'react';

/** One fact of a record, in its <dl>: the name over the value. */
export function Fact({ label, children, className = 'mt-0.5 break-words' }: { label: string; children: ReactNode; className?: string }) {
  return (
    <div>
      <dt className="text-sm font-semibold text-slate-600">{label}</dt>
      <dd className={className}>{children}</dd>
    </div>
  );
}

/** An address (or any few lines) one under the other. */
export const BlockLines = ({ lines }: { lines: readonly string[] }) =>
  lines.map((line) => (
    <span key={line} className="block">
      {line}
    </span>
  ));
