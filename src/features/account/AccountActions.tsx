/**
 * The header's account area (and the mobile menu's): Sign In when signed out; the name before the @
 * linking to the profile, and Sign Out, when signed in.
 */
import { useAuth } from './use-auth';
import { redirectWithToast } from '@/features/toast/flash';
import { displayName } from './auth';
import { signOut } from './session';

async function signOutFromHeader() {
  try {
    await signOut();
    redirectWithToast('/', { title: 'Successfully signed out' });
  } catch (error) {
    // A header sign-out failure stays out of the visitor's way (only logged).
    console.error(error);
  }
}

export default function AccountActions({ variant }: { variant: 'header' | 'menu' }) {
  const auth = useAuth();
  const wrapper = variant === 'header' ? 'hidden items-center gap-2 md:flex' : 'flex flex-col gap-3';
  const button = variant === 'header' ? 'btn-primary px-4 py-1.5 text-sm' : 'btn-primary w-full';
  if (auth.status === 'loading') return <div className={wrapper} aria-hidden="true" style={{ minWidth: variant === 'header' ? '5.5rem' : undefined }} />;
  if (auth.status === 'signed-out') {
    return (
      <div className={wrapper}>
        <a href="/auth" className={button}>
          Sign In
        </a>
      </div>
    );
  }
  return (
    <div className={wrapper}>
      <a
        href="/profile"
        className={variant === 'header' ? 'max-w-32 truncate text-sm font-semibold text-navy hover:underline' : 'btn-secondary w-full'}
        aria-label={`Profile: ${displayName(auth.user.email)}`}
      >
        {displayName(auth.user.email)}
      </a>
      <button type="button" className={variant === 'header' ? 'btn-secondary px-4 py-1.5 text-sm' : 'btn-secondary w-full'} onClick={signOutFromHeader}>
        Sign Out
      </button>
    </div>
  );
}
