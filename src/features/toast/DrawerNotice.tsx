/** The newest toast, shown in the cart drawer's own flow while it is open, where it covers nothing. */
import { useStore } from '@nanostores/react';
import { $toasts } from './store';
import { VARIANT_STYLES } from './Toaster';

export default function DrawerNotice() {
  const latest = useStore($toasts).find((t) => t.open);
  return (
    <div role="status" className="px-5 pt-3 empty:hidden">
      {latest && (
        <p className={`rounded-lg border-l-4 px-3 py-2 text-sm font-semibold text-slate-900 ring-1 ring-slate-200 ${VARIANT_STYLES[latest.variant]}`}>
          {latest.title}
          {latest.action && (
            <a href={latest.action.href} className="ml-2 font-semibold text-navy underline">
              {latest.action.label}
            </a>
          )}
        </p>
      )}
    </div>
  );
}
