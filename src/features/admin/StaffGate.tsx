/**
 * Shows its content to staff only. Signed-out visitors go to /auth and come back; a signed-in shopper who is
 * not staff is told so. The database makes the same check on every read and action; this only picks the screen.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { useAuth } from '@/features/account/use-auth';
import { signInAndReturn } from '@/features/account/return-to';
import { isStaff } from './api';

type Access = 'checking' | 'staff' | 'denied' | 'error';

export function StaffGate({ children }: { children: ReactNode }) {
  const auth = useAuth();
  const [access, setAccess] = useState<Access>('checking');
  const userId = auth.user?.id;

  useEffect(() => {
    if (auth.status === 'signed-out') signInAndReturn();
  }, [auth.status]);

  useEffect(() => {
    if (!userId) return;
    let current = true;
    isStaff().then(
      (staff) => current && setAccess(staff ? 'staff' : 'denied'),
      () => current && setAccess('error'),
    );
    return () => {
      current = false;
    };
  }, [userId]);

  if (auth.status !== 'signed-in' || access === 'checking') {
    return (
      <p role="status" className="py-16 text-center text-slate-700">
        Loading the back office...
      </p>
    );
  }
  if (access !== 'staff') {
    return (
      <div className="mx-auto max-w-xl rounded-3xl bg-white p-8 text-center ring-1 ring-slate-200">
        <h1 className="text-3xl font-extrabold">Back office</h1>
        <p role="alert" className="mt-4 text-slate-700">
          {access === 'denied'
            ? `You don't have access to the back office. You are signed in as ${auth.user.email}; ask the publisher to add this address as staff.`
            : 'We could not check your access just now. Please reload the page.'}
        </p>
        <a href="/" className="btn-primary mt-6">
          Back to the shop
        </a>
      </div>
    );
  }
  return <>{children}</>;
}
