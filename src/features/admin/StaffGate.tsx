/**
 * Shows its content to staff only, with the back office's queries (queries.tsx) around it. Signed-out visitors go
 * to /auth and come back; a signed-in shopper who is not staff is told so. The database makes the same check on
 * every read and action; this only picks the screen.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { useAuth } from '@/features/account/use-auth';
import { signInAndReturn } from '@/features/account/return-to';
import { isStaff } from './api';
import { BackOfficeQueries } from './queries';

export function StaffGate({ children }: { children: ReactNode }) {
  return (
    <BackOfficeQueries>
      <Gate>{children}</Gate>
    </BackOfficeQueries>
  );
}

function Gate({ children }: { children: ReactNode }) {
  const auth = useAuth();
  const userId = auth.user?.id;

  useEffect(() => {
    if (auth.status === 'signed-out') signInAndReturn();
  }, [auth.status]);

  const staff = useQuery({ queryKey: ['staff', userId], queryFn: isStaff, enabled: Boolean(userId), staleTime: Number.POSITIVE_INFINITY });
  const access = staff.status === 'pending' ? 'checking' : staff.status === 'error' ? 'error' : staff.data ? 'staff' : 'denied';

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
