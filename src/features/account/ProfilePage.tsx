/** /profile: the account (read-only), Sign Out, the order history and the wishlist. Signed-out visitors go to /auth and come back. */
import { useAuth } from './use-auth';
import { type ReactNode, useEffect, useState } from 'react';
import { formatPrice, formatShortDate, orderNumber } from '@/lib/format';
import { orderStatusPath, productPath } from '@/lib/paths';
import { listWishlist, removeFromWishlist, type WishlistEntry } from '@/features/wishlist/wishlist';
import { signInPath } from './return-to';
import { toast } from '@/features/toast/store';
import { redirectWithToast } from '@/features/toast/flash';
import { initials, type AuthUser } from './auth';
import { taxInvoicePath } from '@/features/tax-invoice/tax-invoice';
import { getOrderHistory, OrderHistoryError, type OrderSummary } from './orders';
import { StatusBadge } from './StatusBadge';
import { signOut } from './session';
import { CardsOrTable } from '@/components/CardsOrTable';
import { TableHead } from '@/components/TableHead';
import { Panel } from '@/components/Section';

type Loaded<T> = { status: 'loading' } | { status: 'ready'; data: T } | { status: 'error' };

/** Loads what the signed-in person has, once they are known; an answer that comes after they changed is dropped. */
function useOwn<T>(userId: string | undefined, load: (userId: string) => Promise<T>, failed?: (error: unknown) => void) {
  const [state, setState] = useState<Loaded<T>>({ status: 'loading' });
  useEffect(() => {
    if (!userId) return;
    let current = true;
    load(userId).then(
      (data) => current && setState({ status: 'ready', data }),
      (error: unknown) => {
        console.error(error);
        if (!current) return;
        setState({ status: 'error' });
        failed?.(error);
      },
    );
    return () => {
      current = false;
    };
  }, [userId, load, failed]);
  return [state, setState] as const;
}

async function signOutFromProfile() {
  try {
    await signOut();
    redirectWithToast('/', { title: 'Signed out successfully' });
  } catch (error) {
    toast({ title: error instanceof Error && error.message ? error.message : 'Failed to sign out', variant: 'error' });
  }
}

function Account({ user }: { user: AuthUser }) {
  return (
    <section aria-labelledby="account-heading" className="rounded-3xl bg-white p-6 ring-1 ring-slate-200 md:p-8">
      <div className="flex items-center gap-4">
        {user.avatarUrl ? (
          <img src={user.avatarUrl} alt="" width="64" height="64" className="h-16 w-16 rounded-full object-cover" referrerPolicy="no-referrer" />
        ) : (
          <span aria-hidden="true" className="grid h-16 w-16 place-items-center rounded-full bg-navy text-xl font-bold text-white">
            {initials(user.email)}
          </span>
        )}
        <h1 id="account-heading" className="text-3xl font-extrabold">
          My Profile
        </h1>
      </div>
      <div className="mt-6 grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor="profile-email" className="label">
            Email
          </label>
          <input id="profile-email" className="field bg-slate-50" value={user.email} readOnly />
        </div>
        <div>
          <label htmlFor="profile-created" className="label">
            Member since
          </label>
          <input id="profile-created" className="field bg-slate-50" value={formatShortDate(user.createdAt)} readOnly />
        </div>
      </div>
      <button type="button" className="btn-secondary mt-6" onClick={signOutFromProfile}>
        Sign Out
      </button>
    </section>
  );
}

/** A list of the profile's: what it says while it loads, when loading failed, and when the list is empty. */
function OwnList<T>({ loaded, what, empty, children }: { loaded: Loaded<T[]>; what: string; empty: ReactNode; children: (items: T[]) => ReactNode }) {
  if (loaded.status === 'loading') {
    return (
      <p className="mt-4 text-slate-700" role="status">
        {`Loading your ${what}...`}
      </p>
    );
  }
  if (loaded.status === 'error') return <p className="mt-4 text-slate-700">{`We couldn't load your ${what} just now.`}</p>;
  return loaded.data.length === 0 ? empty : children(loaded.data);
}

function OrderHistory({ history }: { history: Loaded<OrderSummary[]> }) {
  const empty = (
    <div className="mt-4 rounded-2xl bg-white p-8 text-center ring-1 ring-slate-200">
      <p className="text-slate-700">You haven't placed any orders yet.</p>
      <a href="/store" className="btn-primary mt-4">
        Go to Store
      </a>
    </div>
  );
  return (
    <Panel id="orders-heading" title="Order History" className="mt-10">
      <OwnList loaded={history} what="orders" empty={empty}>
        {(orders) => (
          // Below 640 px a card per order: six columns do not fit a phone, and the total and Track would be off-screen.
          <CardsOrTable
            label="Your orders"
            from="sm"
            table="w-full text-left"
            frame="overflow-x-auto"
            cards={orders.map((order) => (
              <li key={order.id} className="rounded-2xl bg-white p-4 ring-1 ring-slate-200">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <span className="font-mono font-semibold">{orderNumber(order.number)}</span>
                  <StatusBadge status={order.status} />
                </div>
                <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                  <dt className="text-slate-600">Date</dt>
                  <dd>{formatShortDate(order.createdAt)}</dd>
                  <dt className="text-slate-600">Items</dt>
                  <dd>{order.itemCount}</dd>
                  <dt className="text-slate-600">Total</dt>
                  <dd className="font-semibold">{formatPrice(order.total)}</dd>
                  {order.latestTracking && (
                    <>
                      <dt className="text-slate-600">Tracking</dt>
                      <dd>
                        {order.latestTracking.status} — {formatShortDate(order.latestTracking.at)}
                      </dd>
                    </>
                  )}
                </dl>
                <div className="mt-3 flex flex-wrap gap-x-5 gap-y-2">
                  <a href={orderStatusPath(order.statusToken)} className="font-semibold text-navy underline">
                    Track<span className="sr-only"> order {orderNumber(order.number)}</span>
                  </a>
                  <a href={taxInvoicePath(order.statusToken)} className="font-semibold text-navy underline">
                    Tax invoice<span className="sr-only"> of order {orderNumber(order.number)}</span>
                  </a>
                </div>
              </li>
            ))}
            head={
              <TableHead
                className="border-b border-slate-200 text-sm text-slate-600"
                cell="px-4 py-3"
                columns={['Order ID', 'Date', 'Items', 'Status', { label: 'Total', right: true }, { label: 'Details', srOnly: true }]}
              />
            }
            rows={orders.map((order) => (
              <tr key={order.id} className="border-b border-slate-100 last:border-0">
                <td className="px-4 py-3 font-mono">{orderNumber(order.number)}</td>
                <td className="px-4 py-3">{formatShortDate(order.createdAt)}</td>
                <td className="px-4 py-3">{order.itemCount}</td>
                <td className="px-4 py-3">
                  <StatusBadge status={order.status} />
                  {order.latestTracking && (
                    <span className="mt-1 block text-sm text-slate-700">
                      {order.latestTracking.status} — {formatShortDate(order.latestTracking.at)}
                    </span>
                  )}
                </td>
                <td className="px-4 py-3 text-right font-semibold">{formatPrice(order.total)}</td>
                <td className="px-4 py-3">
                  <a href={orderStatusPath(order.statusToken)} className="font-semibold text-navy underline">
                    Track<span className="sr-only"> order {orderNumber(order.number)}</span>
                  </a>
                  {/* Every order listed is paid (or refunded): each has its tax invoice. */}
                  <a href={taxInvoicePath(order.statusToken)} className="mt-1 block font-semibold whitespace-nowrap text-navy underline sm:mt-0 sm:ml-3 sm:inline">
                    Tax invoice<span className="sr-only"> of order {orderNumber(order.number)}</span>
                  </a>
                </td>
              </tr>
            ))}
          />
        )}
      </OwnList>
    </Panel>
  );
}

function WishlistSection({ userId }: { userId: string }) {
  const [wishlist, setWishlist] = useOwn(userId, listWishlist);

  async function remove(entry: WishlistEntry) {
    try {
      await removeFromWishlist(userId, entry.productId);
      setWishlist((w) => (w.status === 'ready' ? { status: 'ready', data: w.data.filter((e) => e.productId !== entry.productId) } : w));
      toast({ title: `${entry.title} removed from wishlist` });
    } catch (error) {
      console.error(error);
      toast({ title: 'Failed to remove from wishlist', variant: 'error' });
    }
  }

  return (
    <Panel id="wishlist-heading" title="My Wishlist" className="mt-10">
      <OwnList
        loaded={wishlist}
        what="wishlist"
        empty={<p className="mt-4 rounded-2xl bg-white p-6 text-slate-700 ring-1 ring-slate-200">Your wishlist is empty. Tap Add to Wishlist on a book to keep it here.</p>}
      >
        {(entries) => (
          <ul className="mt-4 divide-y divide-slate-100 rounded-2xl bg-white ring-1 ring-slate-200">
            {entries.map((entry) => (
              <li key={entry.productId} className="flex items-center gap-4 p-4">
                {entry.imageUrl && <img src={entry.imageUrl} alt="" width="56" height="56" className="h-14 w-14 rounded-lg object-cover" />}
                <div className="min-w-0 flex-1">
                  <a href={productPath(entry.productId)} className="font-semibold text-navy underline">
                    {entry.title}
                  </a>
                  <p className="text-sm text-slate-700">{formatPrice(entry.price)}</p>
                </div>
                <button type="button" className="btn-secondary" onClick={() => remove(entry)}>
                  Remove<span className="sr-only"> {entry.title} from your wishlist</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </OwnList>
    </Panel>
  );
}

const historyFailed = (error: unknown) => toast({ title: error instanceof OrderHistoryError ? error.message : 'Failed to load order history', variant: 'error' });

export default function ProfilePage() {
  const auth = useAuth();
  const [history] = useOwn(auth.user?.id, getOrderHistory, historyFailed);

  useEffect(() => {
    if (auth.status === 'signed-out') window.location.replace(signInPath('/profile'));
  }, [auth.status]);

  if (auth.status !== 'signed-in') {
    return (
      <p className="py-16 text-center text-slate-700" role="status">
        Loading your profile...
      </p>
    );
  }
  return (
    <>
      <Account user={auth.user} />
      <OrderHistory history={history} />
      <WishlistSection userId={auth.user.id} />
    </>
  );
}
