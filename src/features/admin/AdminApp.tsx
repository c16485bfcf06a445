/** /admin: the publisher's back office. Sections are chosen by the address fragment (#orders, #order/<id>, #stock, #messages, #subscribers). */
import { useEffect, useState } from 'react';
import { MessagesPanel } from './MessagesPanel';
import { OrderDetail } from './OrderDetail';
import { OrdersPanel } from './OrdersPanel';
import { StaffGate } from './StaffGate';
import { StockPanel } from './StockPanel';
import { SubscribersPanel } from './SubscribersPanel';

const SECTIONS = [
  { id: 'orders', label: 'Orders' },
  { id: 'stock', label: 'Stock' },
  { id: 'messages', label: 'Messages' },
  { id: 'subscribers', label: 'Subscribers' },
] as const;

function useHash(): string {
  const [hash, setHash] = useState(() => window.location.hash.replace(/^#/, ''));
  useEffect(() => {
    const update = () => setHash(window.location.hash.replace(/^#/, ''));
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return hash;
}

function Section({ hash }: { hash: string }) {
  const orderId = hash.match(/^order\/([0-9a-f-]{36})$/)?.[1];
  if (orderId) return <OrderDetail orderId={orderId} />;
  if (hash === 'stock') return <StockPanel />;
  if (hash === 'messages') return <MessagesPanel />;
  if (hash === 'subscribers') return <SubscribersPanel />;
  return <OrdersPanel />;
}

function BackOffice() {
  const hash = useHash();
  const current = hash.startsWith('order/') ? 'orders' : (SECTIONS.find((s) => s.id === hash)?.id ?? 'orders');
  return (
    <>
      <h1 className="text-3xl font-extrabold">Back office</h1>
      <nav aria-label="Back office" className="mt-4 mb-6 flex flex-wrap gap-2 border-b border-slate-200 pb-4">
        {SECTIONS.map((s) => (
          <a key={s.id} href={`#${s.id}`} aria-current={current === s.id ? 'page' : undefined} className={current === s.id ? 'btn-primary' : 'btn-secondary'}>
            {s.label}
          </a>
        ))}
      </nav>
      <Section hash={hash} />
    </>
  );
}

export default function AdminApp() {
  return (
    <StaffGate>
      <BackOffice />
    </StaffGate>
  );
}
