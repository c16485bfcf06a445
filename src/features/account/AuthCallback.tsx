/**
 * /auth/callback: exchanges the one-time code for a session, or shows why sign-in failed. A book the visitor tapped
 * Add to Wishlist on before signing in is added now, and the page they return to says so.
 */
import { useEffect, useState } from 'react';
import { TIMINGS } from '@/config/constants';
import { redirectWithToast } from '@/features/toast/flash';
import { addToWishlist } from '@/features/wishlist/wishlist';
import { takeWishlistIntent } from '@/features/wishlist/sign-in-prompt';
import { takeReturnPath } from './return-to';
import { completeSignIn, readCallback } from './session';

export default function AuthCallback() {
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    const fail = (message: string) => {
      setFailure(message);
      window.setTimeout(() => window.location.replace('/auth'), TIMINGS.authCallbackRedirectMs);
    };
    const result = readCallback(window.location);
    if ('error' in result) return fail(result.error);
    completeSignIn(result.code).then(
      async (userId) => {
        const intent = takeWishlistIntent();
        const added = intent ? await addToWishlist(userId, intent.productId).catch(() => 'failed' as const) : null;
        const toast =
          intent && added !== 'failed'
            ? { title: 'Added to your wishlist!', description: `${intent.title} added to wishlist` }
            : { title: 'Successfully signed in!', ...(intent && { description: `We could not add ${intent.title} to your wishlist. Please try again.` }) };
        redirectWithToast(takeReturnPath(), toast, { replace: true });
      },
      (error: Error) => fail(`Authentication error: ${error.message}`),
    );
  }, []);

  if (failure) {
    return (
      <div role="alert" className="text-center">
        <h1 className="text-3xl font-bold">Authentication Failed</h1>
        <p className="mt-3 text-slate-700">{failure}</p>
        <p className="mt-2 text-sm text-slate-600">Taking you back to sign in…</p>
      </div>
    );
  }
  return (
    <p className="text-center text-lg text-slate-700" role="status">
      Processing login...
    </p>
  );
}
