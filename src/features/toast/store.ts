/**
 * Toast notifications as a store any island can write to; the toaster (toaster.ts) shows them.
 * One is visible at a time: a new toast replaces the older one.
 */
import { atom } from 'nanostores';
import { TOAST } from '@/config/constants';

interface ToastAction {
  label: string;
  href: string;
}

export interface ToastMessage {
  id: number;
  title: string;
  description?: string;
  variant: 'success' | 'error' | 'info';
  action?: ToastAction;
  open: boolean;
}

let nextId = 1;
export const $toasts = atom<ToastMessage[]>([]);

export function toast(message: Omit<ToastMessage, 'id' | 'open' | 'variant'> & { variant?: ToastMessage['variant'] }): number {
  const id = nextId++;
  const next: ToastMessage = { ...message, variant: message.variant ?? 'success', id, open: true };
  $toasts.set([next, ...$toasts.get()].slice(0, TOAST.limit));
  return id;
}

/** Marks a toast closed (Radix animates it out), then removes it. */
export function dismissToast(id: number): void {
  $toasts.set($toasts.get().map((t) => (t.id === id ? { ...t, open: false } : t)));
}

export function removeToast(id: number): void {
  $toasts.set($toasts.get().filter((t) => t.id !== id));
}
