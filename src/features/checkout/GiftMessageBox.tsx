/** A gift message as the buyer wrote it, line breaks kept, in a clear box: on the order, the gift slip and the status page. */
export default function GiftMessageBox({ message, className = '' }: { message: string; className?: string }) {
  return (
    <blockquote className={`rounded-xl border-2 border-slate-700 p-4 text-lg break-words whitespace-pre-line ${className}`} data-testid="gift-message">
      {message}
    </blockquote>
  );
}
